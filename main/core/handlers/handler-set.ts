import type { CallName, DesktopHandlers } from '../../../common/ipc.ts';

/** The handlers of the contract's channels named `<group>.<name>`, e.g. HandlersOf<'documents'>. */
export type HandlersOf<Group extends string> = Pick<DesktopHandlers, Extract<CallName, `${Group}.${string}`>>;

type Parts = Record<string, Partial<DesktopHandlers>>;
/** The channels of any member of a union of handler sets. */
type ChannelsOf<T> = T extends unknown ? keyof T : never;
/** Channels that one feature handles and another does too. */
type HandledTwice<P extends Parts> = { [F in keyof P]: keyof P[F] & ChannelsOf<P[Exclude<keyof P, F>]> }[keyof P];
type Unhandled<P extends Parts> = Exclude<CallName, ChannelsOf<P[keyof P]>>;
/** Nothing to add when every channel is handled exactly once; otherwise a property the argument lacks, naming them. */
type HandledOnce<P extends Parts> = [HandledTwice<P>] extends [never]
  ? [Unhandled<P>] extends [never]
    ? unknown
    : { unhandledChannels: Unhandled<P> }
  : { channelsHandledTwice: HandledTwice<P> };

/**
 * The features' handlers as one DesktopHandlers. The type rejects a channel handled by two features (a spread would
 * silently keep the last) or by none.
 */
export function combineHandlers<P extends Parts>(features: P & HandledOnce<P>): DesktopHandlers {
  // The type above proved the features' channels are exactly CallName, each once; Object.assign cannot see that.
  return Object.assign({}, ...Object.values(features)) as DesktopHandlers;
}
