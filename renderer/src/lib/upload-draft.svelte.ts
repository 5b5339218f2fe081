/** What the Uploads screen's form starts from: paths or files dropped anywhere in the window, files chosen. */
class UploadDraft {
  paths = $state('');
  /** Files a page holds without knowing their paths (the browser shell), or chosen with "Choose files…". */
  files = $state<File[]>([]);
}
export const uploadDraft = new UploadDraft();
