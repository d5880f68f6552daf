namespace IntegrationService.Storage.Tarantool;

/// <summary>The storage engines init.lua creates spaces for (suffixes of the space names).</summary>
internal static class TarantoolEngines
{
    public const string Memtx = "memtx";
    public const string Vinyl = "vinyl";

    public static readonly string[] All = [Memtx, Vinyl];
}
