// Entry point: the subcommands live in Commands/; see tank/README.md for the CLI contract.
return Tank.Commands.Cli.Run(args);
