using System.Reflection;

namespace IntegrationService.Storage.Tarantool.Iproto;

/// <summary>One mapped property: typed getter/setter delegates and the formatter of its type.</summary>
internal abstract class MsgPackArrayField<T>
{
    public abstract void Write(ref MsgPackWriter writer, T owner);

    public abstract void Read(ref MsgPackReader reader, T owner);
}

internal sealed class MsgPackArrayField<T, TValue>(PropertyInfo property) : MsgPackArrayField<T>
{
    private readonly Func<T, TValue> _get = property.GetMethod!.CreateDelegate<Func<T, TValue>>();
    private readonly Action<T, TValue> _set = property.SetMethod!.CreateDelegate<Action<T, TValue>>();

    public override void Write(ref MsgPackWriter writer, T owner) => MsgPackFormatter<TValue>.Write(ref writer, _get(owner));

    public override void Read(ref MsgPackReader reader, T owner) => _set(owner, MsgPackFormatter<TValue>.Read(ref reader));
}
