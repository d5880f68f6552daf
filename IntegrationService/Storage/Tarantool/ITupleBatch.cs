using MessagePack;

namespace IntegrationService.Storage.Tarantool;

/// <summary>A slice of the data set written as one MessagePack array of tuples.</summary>
internal interface ITupleBatch
{
    void Write(ref MessagePackWriter writer);
}
