// esbuild bundles *.yaml files as text (loader in esbuild.js).
declare module "*.yaml" {
  const text: string;
  export default text;
}
