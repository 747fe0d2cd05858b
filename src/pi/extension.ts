export default function damageControl(): void {}
