namespace Lab.Tools;

/// <summary>
/// One ab table: reads of <c>GET /item/{Item}/locations</c> and writes of the same URL (POST) on
/// every item architecture (null: every one of the catalogue), <c>ab -k -c Concurrency -n Requests</c>.
/// </summary>
public sealed record AbSettings(string Url, IReadOnlyList<string>? Storages, int Concurrency, int Requests, long Item)
{
    /// <summary>The original Go benchmark's write body.</summary>
    public const string Body = """{"LocationIds":[154,2546,556,54558]}""";
}
