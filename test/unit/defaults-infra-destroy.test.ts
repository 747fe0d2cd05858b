// Default rule family: infrastructure destroy (ask: a human may well want it, in a dev stack).
// Incidents: the DataTalks.Club terraform destroy (vibegraveyard.ai, supervaize.com post-mortems),
// moby/moby#40693 (docker system prune --volumes took running databases). See docs/defaults.md.
import { assertAllowed, assertFamily } from "./defaults-helpers";

describe("defaults: infrastructure destroy (ask)", () => {
  it("terraform / tofu / terragrunt destroy and apply -destroy", () => {
    assertFamily("infra-destroy-terraform", "ask", ["terraform destroy", "terraform -chdir=infra destroy -auto-approve", "terraform apply -auto-approve -destroy", "tofu destroy", "terragrunt destroy", "cd infra && terraform destroy -target=aws_db_instance.main"]);
  });

  it("pulumi destroy / down / stack rm, cdk / sst / serverless destroy and remove", () => {
    assertFamily("infra-destroy-pulumi", "ask", ["pulumi destroy --yes", "pulumi --cwd infra destroy -s dev", "pulumi stack rm dev"]);
    assertFamily("infra-destroy-cdk", "ask", ["npx cdk destroy --force", "npx aws-cdk destroy", "cdktf destroy", "npx sst remove --stage dev", "serverless remove"]);
  });

  it("kubectl delete of namespaces, volumes, or everything of a kind", () => {
    assertFamily("infra-delete-kubernetes", "ask", ["kubectl delete namespace monitoring", "kubectl delete ns/monitoring", "kubectl -n db delete pvc data-postgres-0", "kubectl delete pods --all -n keda", "kubectl delete deploy -A --all", "oc delete project-x --all"]);
    assertFamily("infra-uninstall-helm", "ask", ["helm uninstall prometheus -n monitoring", "helm -n db delete postgres"]);
  });

  it("s3 bucket removal and recursive removal, other clouds' delete", () => {
    // Issue 23: both are effect rules now (destroy* object-storage, destroy* cloud); emptying a
    // bucket through gsutil is object storage's, so it moved from the cloud list to this one.
    assertFamily("infra-delete-s3", "ask", ["aws s3 rb s3://assets --force", "aws --profile prod s3 rm s3://assets --recursive", "aws s3 rm --recursive s3://assets/", "gsutil rm -r gs://bucket"]);
    assertFamily("infra-delete-cloud", "ask", ["aws rds delete-db-instance --db-instance-identifier prod", "aws ec2 terminate-instances --instance-ids i-1", "gcloud sql instances delete prod --quiet", "az group delete -n rg --yes", "flyctl apps destroy app -y", "heroku apps:destroy --app x --confirm x"]);
  });

  it("docker volumes: prune, rm, system prune --volumes, compose down -v", () => {
    assertFamily("infra-prune-docker-volumes", "ask", ["docker volume prune -af", "docker volume rm pgdata", "docker system prune -a --volumes -f", "podman volume prune"]);
    assertFamily("infra-compose-down-volumes", "ask", ["docker compose down -v", "docker compose -f dev.yml down --volumes --remove-orphans", "docker-compose down -v"]);
  });

  it("passes the routine work around them", () => {
    assertAllowed([
      "terraform plan",
      "terraform plan -destroy -out=tf.plan",
      "terraform -chdir=infra apply tf.plan",
      "terraform state list",
      "pulumi preview",
      "pulumi up --yes",
      "npx cdk diff",
      "npx cdk deploy --require-approval never",
      "kubectl get ns",
      "kubectl get pods --all-namespaces",
      "kubectl delete pod api-7d9c",
      "kubectl delete job migrate-123 -n api",
      "helm upgrade --install api ./chart",
      "helm list -A",
      "aws s3 ls s3://assets",
      // Changed on purpose (issue 23): `aws s3 rm` of one object now asks, as `aws s3api
      // delete-object` did (no undo without versioning): remote-effects.test.ts, "clouds and platforms".
      "aws s3 sync dist/ s3://assets/",
      "gcloud sql instances list",
      "docker system prune -af",
      "docker rm -f web",
      "docker container rm -f web",
      "docker compose down",
      "docker volume ls",
    ]);
  });
});
