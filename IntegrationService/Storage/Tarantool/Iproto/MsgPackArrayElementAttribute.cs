namespace IntegrationService.Storage.Tarantool.Iproto;

/// <summary>The zero-based position of a property in its <see cref="MsgPackArrayAttribute"/> array.</summary>
[AttributeUsage(AttributeTargets.Property, Inherited = false)]
public sealed class MsgPackArrayElementAttribute(int index) : Attribute
{
    public int Index { get; } = index;
}
