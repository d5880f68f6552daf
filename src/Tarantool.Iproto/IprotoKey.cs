namespace Tarantool.Iproto;

/// <summary>IPROTO map keys of headers and bodies.</summary>
public static class IprotoKey
{
    public const int RequestType = 0x00;
    public const int Sync = 0x01;
    public const int SchemaVersion = 0x05;
    public const int SpaceId = 0x10;
    public const int IndexId = 0x11;
    public const int Limit = 0x12;
    public const int Offset = 0x13;
    public const int Iterator = 0x14;
    public const int Key = 0x20;
    public const int Tuple = 0x21;
    public const int FunctionName = 0x22;
    public const int UserName = 0x23;
    public const int Expression = 0x27;
    public const int Operations = 0x28;
    public const int Data = 0x30;
    public const int Error = 0x31;
}
