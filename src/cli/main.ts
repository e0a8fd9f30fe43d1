process.stdout.write("ai-memory: not yet\n");
