namespace IntegrationService.Storage.Tarantool.Iproto;

/// <summary>Writes one value; takes the writer by ref because it is a ref struct.</summary>
public delegate void MsgPackWrite<in T>(ref MsgPackWriter writer, T value);
