namespace Tarantool.Iproto;

/// <summary>IPROTO request types (header key 0x00) that this client sends.</summary>
public enum IprotoCode
{
    Select = 0x01,
    Insert = 0x02,
    Replace = 0x03,
    Update = 0x04,
    Delete = 0x05,
    Auth = 0x07,
    Call = 0x0a,
    Eval = 0x08,
    Ping = 0x40,
}
