/** Paths handed from a drop anywhere in the window to the Uploads screen's form. */
class UploadDraft {
  paths = $state('');
  /** The drop happened in a browser, which gives no paths: the form explains and asks for them. */
  browserDrop = $state(false);
}
export const uploadDraft = new UploadDraft();
