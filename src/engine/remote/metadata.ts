// Cloud instance metadata services that hand out credentials (issue 36, family 2): on a cloud
// machine, a plain HTTP GET to a link-local address answers with the instance role's keys or an
// OAuth token. A request to one of these paths, by any HTTP client or interpreter, Bash or MCP,
// prints a secret (and piped to another host, sends it). DATA: host → credential paths.
// Other metadata (instance id, region, hostname) is everyday and stays allowed.

interface Endpoint {
  /** The cloud, for the reason. */
  cloud: string;
  hosts: readonly string[];
  /** Paths (after the host) that answer with a credential. */
  path: RegExp;
}

const LINK_LOCAL = ["169.254.169.254", "[fd00:ec2::254]", "fd00:ec2::254"];

export const CREDENTIAL_ENDPOINTS: readonly Endpoint[] = [
  // AWS IMDS: the role's keys, the instance identity's keys, user data (often holds secrets).
  { cloud: "AWS", hosts: [...LINK_LOCAL, "instance-data", "instance-data.ec2.internal"], path: /^\/latest\/(meta-data\/iam\/security-credentials|meta-data\/identity-credentials|user-data)(\/|$)/i },
  // AWS ECS/Fargate task role and EKS pod identity.
  { cloud: "AWS", hosts: ["169.254.170.2", "169.254.170.23", "[fd00:ec2::23]"], path: /^\/v[12]\/credentials(\/|$)/i },
  // Google Cloud: a service account's access or identity token.
  { cloud: "Google Cloud", hosts: ["metadata.google.internal", "metadata", ...LINK_LOCAL], path: /^\/computeMetadata\/v1(beta1)?\/instance\/service-accounts\/[^/]+\/(token|identity)/i },
  // Azure: a managed identity's OAuth token.
  { cloud: "Azure", hosts: LINK_LOCAL, path: /^\/metadata\/identity\/oauth2\/token/i },
  // Oracle Cloud, Alibaba Cloud: the instance principal's keys.
  { cloud: "Oracle Cloud", hosts: LINK_LOCAL, path: /^\/opc\/v[12]\/identity(\/|$)/i },
  { cloud: "Alibaba Cloud", hosts: ["100.100.100.200"], path: /^\/latest\/meta-data\/ram\/security-credentials(\/|$)/i },
];

/** The cloud whose instance credentials `text` (a URL, or code holding one) asks for; undefined if none. */
export function credentialEndpoint(text: string): string | undefined {
  for (const m of text.matchAll(/(?:https?:\/\/)?(\[[0-9a-f:]+\]|[A-Za-z0-9.-]+)(?::\d+)?(\/[^\s'"`)]*)/gi)) {
    const host = m[1].toLowerCase();
    const path = m[2];
    const hit = CREDENTIAL_ENDPOINTS.find((e) => e.hosts.includes(host) && e.path.test(path));
    if (hit) return hit.cloud;
  }
  return undefined;
}
