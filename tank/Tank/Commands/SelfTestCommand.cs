namespace Tank.Commands;

public static class SelfTestCommand
{
    public static int Run(CliArgs args) => throw new NotImplementedException();
}
