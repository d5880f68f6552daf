namespace IntegrationService.Storage.Tarantool.Iproto;

/// <summary>The family of the next MessagePack value, for readers that accept more than one.</summary>
public enum MsgPackType
{
    Nil,
    Boolean,
    Integer,
    Float,
    String,
    Binary,
    Array,
    Map,
    Extension,
}
