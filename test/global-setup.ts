// Printed first so every test run shows which Node it runs on (the project pins Node 24).
export default function setup(): void {
  console.log(`Node ${process.version} (sqlite ${process.versions.sqlite ?? 'n/a'})`);
}
