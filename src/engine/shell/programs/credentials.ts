// Options whose value is a credential file the program authenticates with (issue 27): `ssh -i
// KEY`, `curl --cert C --key K`. The program reads the key to sign or to open a TLS session and
// never prints it, so the file is used, not read into the agent's context: zero-access does not
// refuse it. Everything else still reads it: `cat KEY`, `cp KEY …`, `base64 KEY`, `curl -d @KEY`,
// `--data-binary @KEY`, `-F f=@KEY`, or a redirection `< KEY`.
// scp's own handler (files.ts) does the same for its `-i`.
export const CREDENTIAL_USES = {
  ssh: ["i"],
  sftp: ["i"],
  // A `--key` counts only beside its `--cert` (table.ts). `--cacert`/`--capath` stay reads: the
  // public corpus's policy counts a CA bundle named like a secret (`ca.pem`) as reading it.
  curl: ["cert", "E", "key", "proxy-cert", "proxy-key"],
  wget: ["certificate", "private-key", "ca-certificate"],
  openssl: ["cert", "key", "CAfile", "CApath", "cert_chain", "chainCAfile"],
  // --kubeconfig: kubectl signs in with the file it names (issue 35: ~/.kube/ is zero-access).
  kubectl: ["client-key", "client-certificate", "certificate-authority", "kubeconfig"],
} as const satisfies Record<string, readonly string[]>;

/**
 * File names that say the file holds a secret wherever it lies (ssh's private keys, the netrc
 * and pgpass files, git's credential store). A `find DIR -name id_rsa` that walks past a
 * zero-access folder is a search for the secret itself, judged as reading what it finds, where
 * `find ~ -name '*.pem'` only lists names (issue 36).
 */
export const SECRET_FILE_NAMES: ReadonlySet<string> = new Set(["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk", "identity", ".netrc", "_netrc", ".pgpass", ".git-credentials", "credentials", "credentials.json", "credentials.toml", ".vault-token"]);
