// The system's trust stores: the folders and bundle files that hold the machine's public CA
// certificates, as each OS and distribution lays them out (Debian/Ubuntu's ca-certificates,
// Fedora/RHEL's ca-trust, SUSE, Alpine, Arch, macOS's /etc/ssl/cert.pem, OpenSSL's own folder).
// What is in them is public by definition: every TLS client on the machine reads them. A name-only
// zero-access entry (`*.pem`, `*.crt`) is about a project's or a user's own keys, so it does not
// reach into these (the kernel sandbox expands such names only in the workspace and HOME, for the
// same reason). The private half (`/etc/ssl/private`, `/etc/pki/tls/private`) is not listed.
const FOLDERS = [
  "/etc/ssl/certs",
  "/usr/share/ca-certificates",
  "/usr/local/share/ca-certificates",
  "/etc/ca-certificates",
  "/etc/pki/ca-trust",
  "/etc/pki/tls/certs",
  "/usr/lib/ssl/certs",
  "/usr/share/pki/ca-trust-source",
  "/var/lib/ca-certificates",
  "/etc/pki/ca-trust/extracted",
];
const FILES = ["/etc/ssl/cert.pem", "/etc/pki/tls/cert.pem", "/etc/ssl/ca-bundle.pem", "/usr/lib/ssl/cert.pem", "/etc/ssl/certs/ca-certificates.crt"];

/** Whether an absolute path (or a glob in one) lies in the system's public trust stores. */
export function inTrustStore(abs: string): boolean {
  if (abs.includes("/../") || abs.endsWith("/..")) return false;
  return FILES.includes(abs) || FOLDERS.some((f) => abs === f || abs.startsWith(f + "/"));
}
