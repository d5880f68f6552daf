namespace IntegrationService.Storage.Tarantool.Iproto;

/// <summary>Reads one value; takes the reader by ref so its position advances.</summary>
public delegate T MsgPackRead<out T>(ref MsgPackReader reader);
