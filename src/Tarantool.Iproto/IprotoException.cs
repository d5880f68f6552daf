namespace Tarantool.Iproto;

/// <summary>
/// Everything the IPROTO client throws derives from this; on its own it means a malformed greeting,
/// frame or answer (the server said something this client does not understand).
/// </summary>
public class IprotoException(string message, Exception? inner = null) : Exception(message, inner);
