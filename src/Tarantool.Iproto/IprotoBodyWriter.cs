using MessagePack;

namespace Tarantool.Iproto;

/// <summary>Writes a request body map from <paramref name="state"/>; the writer is a ref struct, hence by ref.</summary>
public delegate void IprotoBodyWriter<in TState>(ref MessagePackWriter writer, TState state);
