namespace IntegrationService.Http;

/// <summary>Endpoint metadata: the route selects its architecture with <c>?storage=</c>.</summary>
public sealed class ReadsStorageParameter
{
    public static readonly ReadsStorageParameter Instance = new();

    private ReadsStorageParameter() { }
}
