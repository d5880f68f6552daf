namespace Tank.Commands;

public static class ServeCommand
{
    public static int Run(CliArgs args) => throw new NotImplementedException();
}
