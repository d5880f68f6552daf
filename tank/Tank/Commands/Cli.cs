namespace Tank.Commands;

/// <summary>Dispatches the subcommands and turns bad input into a clear message and exit code 2.</summary>
public static class Cli
{
    public const int InputError = 2;

    public static int Run(string[] args)
    {
        if (args.Length == 0) return Usage();
        var rest = args[1..];
        try
        {
            return args[0] switch
            {
                "ammo" => AmmoCommand.Run(CliArgs.Parse(rest)),
                "run" => RunCommand.Run(CliArgs.Parse(rest)),
                "report" => ReportCommand.Run(CliArgs.Parse(rest)),
                "capacity" => CapacityCommand.Run(CliArgs.Parse(rest)),
                "env" => EnvCommand.Run(CliArgs.Parse(rest)),
                "serve" => ServeCommand.Run(CliArgs.Parse(rest)),
                "crash" => CrashCommand.Run(CliArgs.Parse(rest)),
                _ => Usage(),
            };
        }
        catch (TankInputException e)
        {
            Console.Error.WriteLine($"tank: error: {e.Message}");
            return InputError;
        }
    }

    private static int Usage()
    {
        Console.Error.WriteLine("""
            usage: tank <command> …  (see tank/README.md)
              ammo     --scenario S --storage NAME --host H:P --count N --seed S [--format phantom|uri|uripost] --out FILE
              run      <load.yaml> [--ammo F] [--address H:P] [--schedule S] [--out DIR] [--tag T] [--storage N] [--scenario S]
              run      … [--warmup S] [--cpu name=pid]…   warm up first (not recorded); account the CPU of these processes
              report   <run dir> [--slo-ms 10]
              capacity <run dir>   the steady rps of a closed-model probe
              env      <run dir> [--server name=version]… [--durability name=text]…
              serve    [--port 8099]   a trivial HTTP responder for measuring the runner
              crash    --url U --storage N --kind author|item --rate R --seconds S --fault-at F --fault-cmd C --out FILE [--items A-B] [--locations 100000] [--truth-storage NAME] [--timeout 3s] [--recover-seconds 60] [--label T]
            """);
        return InputError;
    }
}
