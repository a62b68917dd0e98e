// A part's diagnostics files: what its machine uploaded (DataSyncService.FileUpload), newest first,
// each downloadable. The file arrives in chunks (CloudService.DownloadFile) and is checked against
// the SHA-256 svc-cloud recorded before it is offered; its name is the uploader's, kept to a safe
// file name.
import { useEffect, useState } from "preact/hooks";
import { cloudCall, serverStream } from "./api.js";
import { Problem, useProblem } from "../../web-ui/problem.js";

interface UploadedFile {
  id: string;
  fileName: string;
  fileExtension?: string;
  size?: string;
  sha256?: string;
  uploadedOn?: string;
}

/** A base64 chunk's bytes. */
function bytesOf(base64: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** The uploader's name as a file name with no folder in it. */
const safeName = (file: UploadedFile) => (file.fileName.split(/[\\/]/).pop() || file.id).replace(/[^\w.+-]/g, "_");

async function fetchFile(partId: string, file: UploadedFile): Promise<Blob> {
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  await serverStream<{ data?: string }>("svc.cloud.v1.CloudService", "DownloadFile", { partId, fileId: file.id }, (message) => message.data && chunks.push(bytesOf(message.data)), new AbortController().signal);
  const blob = new Blob(chunks);
  const digest = [...new Uint8Array(await crypto.subtle.digest("SHA-256", await blob.arrayBuffer()))].map((b) => b.toString(16).padStart(2, "0")).join("");
  if (file.sha256 && digest !== file.sha256) throw new Error(`${file.fileName}: the download does not match its SHA-256; try again`);
  return blob;
}

export function PartFiles(props: { partId: string }) {
  const [files, setFiles] = useState<UploadedFile[]>([]);
  const [ready, setReady] = useState<Record<string, string>>({});
  const [problem, run] = useProblem();

  useEffect(() => run(cloudCall<{ files?: UploadedFile[] }>("ListFiles", { partId: props.partId }), (answer) => setFiles(answer.files ?? [])), [props.partId]);
  useEffect(() => () => Object.values(ready).forEach((url) => URL.revokeObjectURL(url)), []);

  const prepare = (file: UploadedFile) => run(fetchFile(props.partId, file), (blob) => setReady({ ...ready, [file.id]: URL.createObjectURL(blob) }));

  return (
    <section aria-label="Diagnostics">
      <h2>Diagnostics</h2>
      <Problem text={problem} />
      {files.length === 0 ? (
        <p>No files uploaded.</p>
      ) : (
        <div class="scroll">
          <table>
            <thead>
              <tr>
                <th>File</th>
                <th>Size</th>
                <th>Uploaded</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {files.map((file) => (
                <tr key={file.id}>
                  <td>{file.fileName}</td>
                  <td>{Number(file.size ?? 0).toLocaleString()} bytes</td>
                  <td>{file.uploadedOn ? new Date(file.uploadedOn).toLocaleString() : ""}</td>
                  <td>
                    {ready[file.id] ? (
                      <a href={ready[file.id]} download={safeName(file)}>
                        Save {safeName(file)}
                      </a>
                    ) : (
                      <button type="button" onClick={() => prepare(file)}>
                        Download {file.fileName}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
