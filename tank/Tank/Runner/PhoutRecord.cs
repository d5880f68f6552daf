namespace Tank.Runner;

/// <summary>One finished request: phantom's 12 phout fields (times in µs) plus our send lateness.</summary>
public struct PhoutRecord
{
    public long StartUnixUs;
    public string Tag;
    public long ConnectUs;
    public long SendUs;
    public long LatencyUs;
    public long ReceiveUs;
    public long IntervalEventUs;
    public long SizeOut;
    public long SizeIn;
    public int NetCode;
    public int ProtoCode;
    /// <summary>How late the request left against its schedule; not a phout field.</summary>
    public long LatenessUs;

    public readonly long IntervalRealUs => ConnectUs + SendUs + LatencyUs + ReceiveUs;

    public readonly long EndUnixUs => StartUnixUs + IntervalRealUs;
}
