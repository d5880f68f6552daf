namespace Tarantool.Iproto;

/// <summary>Index iterators of IPROTO_SELECT (body key 0x14).</summary>
public enum IprotoIterator
{
    Eq = 0,
    All = 2,
    Ge = 6,
}
