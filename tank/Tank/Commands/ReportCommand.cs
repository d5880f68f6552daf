namespace Tank.Commands;

public static class ReportCommand
{
    public static int Run(CliArgs args) => throw new NotImplementedException();
}
