namespace IntegrationService.Storage.Tarantool.Iproto;

/// <summary>The bytes are not the MessagePack value the caller expected (a protocol or mapping bug).</summary>
public sealed class MsgPackException(string message) : Exception(message);
