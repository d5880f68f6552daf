namespace Tank.Commands;

public static class RunCommand
{
    public static int Run(CliArgs args) => throw new NotImplementedException();
}
