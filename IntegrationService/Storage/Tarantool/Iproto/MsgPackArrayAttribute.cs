namespace IntegrationService.Storage.Tarantool.Iproto;

/// <summary>Marks a class mapped to a MessagePack array (a Tarantool tuple) by <see cref="MsgPackArrayMapper{T}"/>.</summary>
[AttributeUsage(AttributeTargets.Class, Inherited = false)]
public sealed class MsgPackArrayAttribute : Attribute;
