// Every secret shape the redaction must hide, each with the part that must stay readable: shared
// by the redaction unit test and the ledger/feed/OTLP/snapshots tests (issue 35). The values are
// made up; each is unique so a test can search every record for it.
export interface SecretCase {
  what: string;
  command: string;
  /** The secret values: none may appear in anything written or shown. */
  secrets: string[];
  /** Text that must still be there: the command stays recognisable. */
  keeps: string[];
}

const gh = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
const aws = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEYzz";

export const SECRET_CASES: SecretCase[] = [
  { what: "bearer header in curl -H", command: `curl -H "Authorization: Bearer tok_live_9f8e7d6c5b4a3" https://api.example.com/v1/me`, secrets: ["tok_live_9f8e7d6c5b4a3"], keeps: ["curl -H", "Authorization: Bearer", "https://api.example.com/v1/me"] },
  { what: "api-key header", command: `curl -s -H 'X-Api-Key: k3y-0123456789abcdef' https://x.example/items`, secrets: ["k3y-0123456789abcdef"], keeps: ["X-Api-Key:", "https://x.example/items"] },
  { what: "export of a secret-named variable", command: `export AWS_SECRET_ACCESS_KEY=${aws} && aws s3 ls`, secrets: [aws], keeps: ["export AWS_SECRET_ACCESS_KEY=", "aws s3 ls"] },
  { what: "PGPASSWORD before psql", command: `PGPASSWORD='pg-Secret-123' psql -h db -U app -c 'select 1'`, secrets: ["pg-Secret-123"], keeps: ["PGPASSWORD=", "psql -h db -U app"] },
  { what: "mysql -p attached", command: `mysql -uroot -pMy5qlPass! shop -e 'drop table carts'`, secrets: ["My5qlPass!"], keeps: ["mysql -uroot", "drop table carts"] },
  { what: "credentials in a clone URL", command: `git clone https://alice:hunter2pass@github.com/acme/app.git`, secrets: ["hunter2pass"], keeps: ["git clone https://alice:", "@github.com/acme/app.git"] },
  { what: "token as the user of a URL", command: `git push https://${gh}@github.com/acme/app.git main`, secrets: [gh], keeps: ["git push https://", "github.com/acme/app.git main"] },
  { what: "connection string", command: `psql "postgresql://app:pgConnPw99@db.internal:5432/shop" -c 'delete from orders'`, secrets: ["pgConnPw99"], keeps: ["psql", "db.internal:5432/shop", "delete from orders"] },
  { what: "key=value connection string", command: `psql "host=db user=app password=kvConnPw77 dbname=shop"`, secrets: ["kvConnPw77"], keeps: ["host=db user=app password=", "dbname=shop"] },
  { what: "ADO connection string", command: `sqlcmd -Q "x" -C "Server=db;User Id=sa;Password=AdoPw_4455;"`, secrets: ["AdoPw_4455"], keeps: ["Server=db;User Id=sa;Password="] },
  { what: "--password option", command: `docker login --username bob --password dockerPw1234 registry.example.com`, secrets: ["dockerPw1234"], keeps: ["docker login --username bob --password", "registry.example.com"] },
  { what: "--token= option", command: `vercel deploy --token=vcl_abcdefghij123456 --prod`, secrets: ["vcl_abcdefghij123456"], keeps: ["vercel deploy --token=", "--prod"] },
  { what: "curl -u user:password", command: `curl -u admin:CurlPw-777 https://jenkins.local/job/x/build`, secrets: ["CurlPw-777"], keeps: ["curl -u admin:", "https://jenkins.local/job/x/build"] },
  { what: "GitHub token", command: `gh auth login --with-token <<< ${gh.replace("A1", "Z9")}`, secrets: [gh.replace("A1", "Z9")], keeps: ["gh auth login --with-token"] },
  { what: "fine-grained GitHub token", command: `echo github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCD > t`, secrets: ["github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCD"], keeps: ["echo", "> t"] },
  { what: "GitLab token", command: `git -c http.extraHeader="PRIVATE-TOKEN: glpat-xYz123AbC456dEf789gH" fetch`, secrets: ["glpat-xYz123AbC456dEf789gH"], keeps: ["fetch"] },
  { what: "AWS access key id", command: `aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE`, secrets: ["AKIAIOSFODNN7EXAMPLE"], keeps: ["aws configure set aws_access_key_id"] },
  { what: "Google API key", command: `curl "https://maps.googleapis.com/maps/api/geocode/json?key=AIzaSyA-1234567890abcdefghijklmnopqrstu"`, secrets: ["AIzaSyA-1234567890abcdefghijklmnopqrstu"], keeps: ["curl", "maps.googleapis.com"] },
  { what: "Slack token", command: `curl -d token=xoxb-123456789012-abcdefghijklmnop https://slack.com/api/chat.postMessage`, secrets: ["xoxb-123456789012-abcdefghijklmnop"], keeps: ["https://slack.com/api/chat.postMessage"] },
  { what: "Stripe key", command: `stripe refunds create --api-key sk_live_51Habcdefghijklmnop0123`, secrets: ["sk_live_51Habcdefghijklmnop0123"], keeps: ["stripe refunds create --api-key"] },
  { what: "model API key", command: `ANTHROPIC_API_KEY=sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345 claude -p hi`, secrets: ["sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345"], keeps: ["ANTHROPIC_API_KEY=", "claude -p hi"] },
  { what: "npm token", command: `npm config set //registry.npmjs.org/:_authToken npm_abcdefghijklmnopqrstuvwxyz0123456789`, secrets: ["npm_abcdefghijklmnopqrstuvwxyz0123456789"], keeps: ["npm config set //registry.npmjs.org/:_authToken"] },
  { what: "PyPI token", command: `twine upload -u __token__ -p pypi-AgEIcHlwaS5vcmcCJDAwMDAwMDAwLTAwMDAtMDAwMC0wMDAw dist/*`, secrets: ["pypi-AgEIcHlwaS5vcmcCJDAwMDAwMDAwLTAwMDAtMDAwMC0wMDAw"], keeps: ["twine upload", "dist/*"] },
  { what: "JWT", command: `curl -b "session=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U" https://app.local`, secrets: ["dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"], keeps: ["curl -b", "https://app.local"] },
  { what: "private key", command: `printf '%s' '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----' > id`, secrets: ["b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ"], keeps: ["printf", "> id"] },
  { what: "secret in JSON", command: `curl -d '{"user":"bob","client_secret":"jsonSecret-4242"}' https://auth.local/token`, secrets: ["jsonSecret-4242"], keeps: ['"user":"bob"', "https://auth.local/token"] },
  { what: "docker -e secret env", command: `docker run -e DB_PASSWORD=dockerEnvPw55 -p 8080:80 app`, secrets: ["dockerEnvPw55"], keeps: ["docker run -e DB_PASSWORD=", "-p 8080:80 app"] },
  { what: "redis-cli -a", command: `redis-cli -h cache -a RedisPw_0909 FLUSHALL`, secrets: ["RedisPw_0909"], keeps: ["redis-cli -h cache -a", "FLUSHALL"] },
];

/** Commands with nothing secret in them: the redaction leaves them exactly as they were. */
export const PLAIN_COMMANDS = [
  "rm -rf data",
  "git log --author alice --oneline",
  "docker run -p 8080:80 --user 1000:1000 nginx",
  "psql -h db -U app -d shop -c 'select 1'",
  "npm install --save-dev mocha",
  "curl -s https://example.com/api?page=2",
  "git push origin main",
  "mysql -u root -p shop",
  "docker login --password-stdin -u bob registry.example.com",
  "PWD=/tmp ls",
];
