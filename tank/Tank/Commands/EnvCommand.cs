namespace Tank.Commands;

public static class EnvCommand
{
    public static int Run(CliArgs args) => throw new NotImplementedException();
}
