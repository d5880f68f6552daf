namespace IntegrationService.Http;

/// <summary>The catalogue's names for the APIs an architecture serves (<see cref="StorageDescription.Serves"/>).</summary>
public static class StorageApi
{
    public const string Author = "Author";
    public const string Item = "Item";
    public const string Queue = "Queue";
    public const string KeyValue = "KeyValue";
}
