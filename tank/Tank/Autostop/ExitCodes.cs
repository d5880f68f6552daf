namespace Tank.Autostop;

/// <summary>Exit codes of Tank's autostop (common/interfaces.py AbstractCriterion.RC_*).</summary>
public static class ExitCodes
{
    public const int Time = 21;
    public const int Http = 22;
    public const int Net = 23;
}
