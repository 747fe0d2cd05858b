// Issue 36, family 5: remote destroys without a destroy verb — an HTTP DELETE or PURGE to a host
// that is not this machine (any client, interpreters' libraries included), verbs that rebuild or
// reimage a machine, backups turned off, a private repository made public. Everyday first.
import { assertAllowed, assertDecidedByAlone } from "./defaults-helpers";

describe("defaults: remote destroys without a destroy verb (issue 36)", () => {
  it("passes deletes on this machine or a development host, and other edits", () => {
    assertAllowed([
      "curl -X DELETE http://localhost:3000/todos/1",
      "curl -X DELETE http://127.0.0.1:8000/api/items/3",
      "curl -X DELETE http://api:8080/todos/1",
      "http DELETE localhost:5000/users/9",
      "python3 -c \"import requests; requests.delete('http://localhost:8000/items/1')\"",
      "curl -X GET https://api.example.com/v1/users/42",
      "gh repo edit --description 'docs'",
      "aws rds modify-db-instance --db-instance-identifier dev --backup-retention-period 7",
    ]);
  });

  it("asks before a DELETE or PURGE to another host, a rebuild, a repository made public", () => {
    assertDecidedByAlone("remote-destroy-hosted", "ask", [
      "curl -X DELETE https://api.example.com/v1/users/42",
      "curl --request PURGE https://cdn.example.com/assets/app.js",
      "http DELETE https://api.example.com/v1/users/42",
      "python3 -c \"import requests; requests.delete('https://api.example.com/v1/projects/7')\"",
      "node -e \"fetch('https://api.example.com/v1/projects/7', {method: 'DELETE'})\"",
    ]);
    assertDecidedByAlone("infra-delete-cloud", "ask", ["doctl compute droplet-action rebuild 123 --image ubuntu-24-04-x64", "hcloud server rebuild web --image ubuntu-24.04"]);
    assertDecidedByAlone("remote-overwrite", "ask", ["gh repo edit acme/secret --visibility public", "gh repo edit --visibility=public"]);
  });

  it("refuses backups turned off", () => {
    assertDecidedByAlone("remote-destroy-backups", "block", ["aws rds modify-db-instance --db-instance-identifier prod --backup-retention-period 0", "gcloud sql instances patch prod --no-backup"]);
  });
});
