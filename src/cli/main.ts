process.stdout.write("damage-control: not yet\n");
