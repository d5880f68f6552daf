return Crash.Commands.CrashCli.Run(args);
