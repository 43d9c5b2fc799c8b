// Preloaded into Prism and into the stateful mock's server (`node --import`): the parent holds the write end of our stdin
// pipe, and the kernel closes it however the parent dies (even SIGKILL), so the child never outlives it.
process.stdin.on('end', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
process.stdin.resume();
