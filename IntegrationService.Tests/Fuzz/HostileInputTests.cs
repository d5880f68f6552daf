using System.Net;
using System.Text;
using System.Text.Json;
using CsCheck;
using IntegrationService.Tests.Fixtures;

namespace IntegrationService.Tests.Fuzz;

/// <summary>
/// Property-based fuzzing of every route with hostile input (CsCheck): generated path segments,
/// query strings and bodies — wrong types, huge and negative numbers, deep nesting, invalid UTF-8,
/// long strings, duplicate keys and parameters, nulls, wrong content types. Every answer must come
/// (no hang), none may be a 5xx (every backend is up), every 4xx must be ProblemDetails with its
/// status and a title, and a rejected request must write nothing: the test owns one author per
/// author table and one item per item store, tracks what the accepted requests did to them, and
/// compares at the end; the ids the stores hand out next prove no rejected save inserted a row.
/// </summary>
public sealed class HostileInputTests(ServiceFixture service) : IClassFixture<ServiceFixture>
{
    private static readonly string[] AuthorStorages = ["postgres", "postgres-redis-cache", "tarantool-memtx", "tarantool-vinyl"];
    private static readonly string[] ItemStorages = ["postgres", "postgres-redis-cache", "postgres-redis-persistent", "tarantool-memtx", "tarantool-vinyl"];

    private HttpClient Client => service.Client;

    /// <summary>The table a query string's storage parameter selects, as the service reads it; null when it selects none.</summary>
    private static string? TableOf(string query)
    {
        var values = System.Web.HttpUtility.ParseQueryString(query).GetValues("storage");
        var storage = values is null || values is [""] ? "postgres" : values.Length == 1 ? values[0] : null; // absent or empty: the default
        var known = AuthorStorages.Concat(ItemStorages).FirstOrDefault(s => s.Equals(storage, StringComparison.OrdinalIgnoreCase));
        return known is null ? null : Table(known);
    }

    /// <summary>Architectures that share a table: writes through either show in both.</summary>
    private static string Table(string storage) => storage == "postgres-redis-cache" ? "postgres" : storage;

    private sealed record FuzzRequest(HttpMethod Method, string Path, byte[]? Body, string? ContentType)
    {
        public override string ToString() =>
            $"{Method} {(Path.Length > 300 ? Path[..300] + $"… ({Path.Length} chars)" : Path)} [{ContentType}] {(Body is null ? "" : Encoding.UTF8.GetString(Body.AsSpan(0, Math.Min(Body.Length, 300))))}";
    }

    [Fact]
    public async Task NoInputGetsA5xxOrAHangAndRejectedRequestsWriteNothing()
    {
        var itemId = Ids.NewItemId();
        var authors = new Dictionary<string, long>();
        foreach (var storage in AuthorStorages.Where(s => Table(s) == s)) authors[storage] = await SaveAsync(storage, "fuzz-sentinel");
        var state = new Tracker(authors, itemId);

        var gen = Requests(authors, itemId);
        await gen.SampleAsync(async request =>
        {
            var (status, problem, body, protocolRejection) = await SendAsync(request);
            Assert.True(status < 500, $"{status} for {request}: {body}");
            if (protocolRejection)
            {
                // Kestrel refuses a malformed or oversized request line itself (a NUL in the path, a
                // line over 8 KiB), before any of our code runs: 400 or 414, empty body, connection
                // closed. Nothing can be written.
                Assert.Contains(status, new[] { 400, 414 });
            }
            else if (status >= 400)
            {
                Assert.NotNull(problem);
                Assert.Equal(status, problem.Value.GetProperty("status").GetInt32());
                Assert.False(string.IsNullOrEmpty(problem.Value.GetProperty("title").GetString()), $"no title for {request}");
            }
            state.Record(request, status, body);
        }, iter: 1500, threads: 1, print: r => r.ToString());

        // Accepted writes are accounted for; anything else a rejected request did shows here.
        foreach (var (storage, sentinel) in authors)
        {
            var next = await SaveAsync(storage, "fuzz-after");
            Assert.Equal(sentinel + 1 + state.Saves(storage), next);
            var response = await Client.GetAsync($"/Author/Get?id={sentinel}&storage={storage}");
            if (state.Deleted(storage)) Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
            else Assert.Equal(state.ExpectedAuthor(storage), Normalize(await response.Content.ReadAsStringAsync()));
        }
        foreach (var storage in ItemStorages.Where(s => Table(s) == s))
        {
            var read = await Client.GetStringAsync($"/item/{itemId}/locations?storage={storage}");
            var ids = JsonDocument.Parse(read).RootElement.EnumerateArray().Select(l => l.GetProperty("ID").GetInt64()).ToArray();
            Assert.Equal(state.ExpectedLocations(storage), ids);
            await Client.PostAsync($"/item/{itemId}/locations?storage={storage}", Json("""{"LocationIds":[]}"""));
        }
        Assert.True(state.Accepted > 0 && state.Rejected > 0, $"the generators should produce both: {state.Accepted} accepted, {state.Rejected} rejected");
    }

    private async Task<(int Status, JsonElement? Problem, string Body, bool ProtocolRejection)> SendAsync(FuzzRequest request)
    {
        using var message = new HttpRequestMessage(request.Method, request.Path);
        if (request.Body is not null)
        {
            message.Content = new ByteArrayContent(request.Body);
            if (request.ContentType is not null) message.Content.Headers.TryAddWithoutValidation("Content-Type", request.ContentType);
        }
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(20));
        HttpResponseMessage response;
        try
        {
            response = await Client.SendAsync(message, timeout.Token);
        }
        catch (OperationCanceledException)
        {
            throw new Xunit.Sdk.XunitException($"no answer in 20 s to {request}");
        }
        var body = await response.Content.ReadAsStringAsync();
        JsonElement? problem = null;
        if (response.Content.Headers.ContentType?.MediaType == "application/problem+json")
        {
            problem = JsonDocument.Parse(body).RootElement.Clone();
        }
        var protocolRejection = response.Headers.ConnectionClose == true && body.Length == 0 && problem is null;
        return ((int)response.StatusCode, problem, body, protocolRejection);
    }

    private async Task<long> SaveAsync(string storage, string name)
    {
        var response = await Client.PostAsync($"/Author/Save?storage={storage}", Json($$"""{"name":"{{name}}","familyName":"f","age":1,"booksCount":2}"""));
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        return JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement.GetProperty("id").GetInt64();
    }

    private static StringContent Json(string text) => new(text, Encoding.UTF8, "application/json");

    private static string Normalize(string json) => JsonSerializer.Serialize(JsonDocument.Parse(json).RootElement);

    /// <summary>What the accepted requests did to the test's own rows.</summary>
    private sealed class Tracker(Dictionary<string, long> authors, long itemId)
    {
        private readonly Dictionary<string, int> _saves = new();
        private readonly Dictionary<string, string?> _author = new();
        private readonly Dictionary<string, long[]> _locations = new();

        public int Accepted { get; private set; }

        public int Rejected { get; private set; }

        public int Saves(string table) => _saves.GetValueOrDefault(table);

        public bool Deleted(string table) => _author.TryGetValue(table, out var value) && value is null;

        public string? ExpectedAuthor(string table) => _author.GetValueOrDefault(table);

        public long[] ExpectedLocations(string table) => _locations.GetValueOrDefault(table) ?? [];

        public void Record(FuzzRequest request, int status, string body)
        {
            if (status >= 400) { Rejected++; return; }
            Accepted++;
            if (request.Method != HttpMethod.Post) return;
            var uri = new Uri("http://x" + request.Path);
            var table = TableOf(uri.Query)!;
            var path = uri.AbsolutePath;
            if (path.Equals("/Author/Save", StringComparison.OrdinalIgnoreCase))
            {
                _saves[table] = Saves(table) + 1;
            }
            else if (path.Equals("/Author/Update", StringComparison.OrdinalIgnoreCase))
            {
                var id = JsonDocument.Parse(body).RootElement.GetProperty("id").GetInt64();
                Assert.Equal(authors[table], id); // the only author an update can find is the sentinel
                _author[table] = Normalize(body);
            }
            else if (path.Equals("/Author/Delete", StringComparison.OrdinalIgnoreCase))
            {
                _author[table] = null;
            }
            else if (path.EndsWith("/locations", StringComparison.Ordinal))
            {
                Assert.Equal($"/item/{itemId}/locations", path);
                // Read the body the way the service does (case-insensitive names, the last duplicate wins).
                var accepted = JsonSerializer.Deserialize(request.Body!, IntegrationService.Http.ApiJsonContext.Default.ReplaceLocationsRequest)!;
                _locations[table] = accepted.LocationIds!.Distinct().Order().ToArray();
            }
        }
    }

    // ---- generators -----------------------------------------------------------------------

    /// <summary>Hostile scalar text for path segments and query values (already URL-encoded where it matters).</summary>
    private static readonly Gen<string> Junk = Gen.Frequency(
        (4, Gen.OneOf("", "0", "-1", "1", "2", "007", "+5", " 1", "1 ", "1.5", "1e3", "1e400", "0x10", "NaN", "null", "true", "[]", "{}",
            "9223372036854775807", "9223372036854775808", "-9223372036854775808", "99999999999999999999999999",
            "2147483647", "2147483648", "-2147483649", "%00", "%FF%FE", "%C0%AF", "%ED%A0%80", "%F0%9F%98%80", "%E2%80%AE", "a%2Fb",
            "..%2F..%2Fetc%2Fpasswd", "1%3BDROP%20TABLE%20authors", "%27", "%22", "%3Cscript%3E", "%0D%0AX-Injected:%201")),
        (2, Gen.Long.Select(v => v.ToString())),
        (1, Gen.Int[-5, 5].Select(v => v.ToString())),
        (2, Gen.String[0, 40].Select(Uri.EscapeDataString)),
        (1, Gen.Int[1000, 6000].Select(n => new string('9', n))));

    private static readonly Gen<string> Storage = Gen.Frequency(
        (6, Gen.OneOf(AuthorStorages.Concat(ItemStorages).Distinct().ToArray())),
        (1, Gen.OneOf("POSTGRES", "Tarantool-Memtx", "redis", "postgres-redis-persistent%00", "")),
        (1, Junk));

    /// <summary>A queue segment: a queue's name or alias, odd spellings of one, or junk.</summary>
    private static readonly Gen<string> Queue = Gen.Frequency(
        (4, Gen.OneOf("beanstalkd", "redis-aof", "redis_aof", "redis-rdb", "redis_rdb", "postgres", "tarantool-memtx", "tarantool-vinyl")),
        (1, Gen.OneOf("REDIS_AOF", "redis-persistent", "postgres-redis-cache", "beanstalkd%00", "redis%5Faof", "%20postgres")),
        (1, Junk));

    /// <summary>The key-value API's storage parameter: its five stores, names it does not serve, junk, duplicates.</summary>
    private static readonly Gen<string> KvStorageQuery = Gen.Frequency(
        (1, Gen.Const("")),
        (6, Gen.OneOf("postgres", "tarantool-memtx", "tarantool-vinyl", "redis-persistent", "redis-cluster", "REDIS-CLUSTER", "postgres-redis-cache", "beanstalkd")
            .Select(s => $"&storage={s}")),
        (1, Junk.Select(j => $"&storage={j}")),
        (1, Gen.Const("&storage=postgres&storage=redis-cluster")));

    /// <summary>"storage=…" zero, one or two times (duplicate parameters).</summary>
    private static readonly Gen<string> StorageQuery = Gen.Frequency(
        (1, Gen.Const("")),
        (6, Storage.Select(s => $"&storage={s}")),
        (1, Gen.Select(Storage, Storage, (a, b) => $"&storage={a}&storage={b}")));

    private static readonly string[] AuthorFields = ["id", "name", "familyName", "middleName", "age", "birthCountry", "birthCity", "booksCount", "birthDate", "Id", "NAME", "extra"];

    /// <summary>JSON scalars of every type, including ones the fields do not expect.</summary>
    private static readonly Gen<string> JsonScalar = Gen.Frequency(
        (3, Gen.OneOf("null", "true", "false", "0", "-1", "1", "255", "256", "-0", "1.5", "1e400", "-1e400", "9223372036854775808",
            "123456789012345678901234567890", "\"\"", "\"a\"", "\"\\ud800\"", "\"\\u0000\"", "\"2000-01-01T00:00:00Z\"", "\"2000-13-45\"",
            "\"not a date\"", "\"😀\"", "NaN", "Infinity", "'single'", "0x10", "01")),
        (2, Gen.Long.Select(v => v.ToString())),
        (2, Gen.String[0, 30].Select(s => JsonSerializer.Serialize(s))),
        (1, Gen.Int[200, 3000].Select(n => JsonSerializer.Serialize(new string('x', n)))));

    private static readonly Gen<string> JsonValue = Gen.Recursive<string>((depth, value) => depth > 3
        ? JsonScalar
        : Gen.Frequency(
            (4, JsonScalar),
            (1, value.Array[0, 4].Select(items => "[" + string.Join(",", items) + "]")),
            (1, Gen.Select(Gen.OneOf(AuthorFields), value).Array[0, 4]
                .Select(pairs => "{" + string.Join(",", pairs.Select(p => $"\"{p.Item1}\":{p.Item2}")) + "}"))));

    /// <summary>Author-shaped objects: each field present or not, any JSON value, sometimes twice.</summary>
    private static Gen<string> AuthorBody(string sentinel) => Gen.Select(
        Gen.Select(Gen.OneOf(AuthorFields.Skip(1).ToArray()), JsonValue).Array[0, 6],
        Gen.Frequency((3, Gen.Const(sentinel)), (1, JsonScalar.Where(v => !IsId(v)))),
        Gen.Bool,
        (fields, id, valid) =>
        {
            var pairs = fields.Select(p => $"\"{p.Item1}\":{p.Item2}").ToList();
            if (valid) pairs.InsertRange(0, ["\"name\":\"fuzz\"", "\"familyName\":\"zzuf\""]);
            pairs.Add($"\"id\":{id}");
            return "{" + string.Join(",", pairs) + "}";
        });

    private static readonly Gen<string> LocationsBody = Gen.Frequency(
        (3, Gen.Int[-3, TestDataSet.Locations + 3].Array[0, 6].Select(ids => $$"""{"LocationIds":[{{string.Join(",", ids)}}]}""")),
        (1, JsonScalar.Array[0, 4].Select(values => $$"""{"LocationIds":[{{string.Join(",", values)}}]}""")),
        (1, JsonValue.Select(v => $$"""{"LocationIds":{{v}}}""")),
        (1, Gen.Const($$"""{"LocationIds":[{{string.Join(",", Enumerable.Range(1, 1001))}}]}""")),
        (1, Gen.Const("""{"LocationIds":[1],"LocationIds":[2,3]}""")),
        (1, Gen.Const("""{"locationIds":[1]}""")));

    /// <summary>Bodies that are not JSON at all, or broken JSON.</summary>
    private static readonly Gen<byte[]> BrokenBody = Gen.Frequency(
        (2, Gen.OneOf("", "{", "}", "{\"name\":", "[1,2", "{\"name\":\"a\"}}", "nul", "\"str\"", "[]", "{}", "{\"a\" 1}", "\uFEFF{}", "{\"name\":\"\\x\"}")
            .Select(Encoding.UTF8.GetBytes)),
        (1, Gen.Const(Encoding.ASCII.GetBytes(new string('[', 5000) + new string(']', 5000)))),
        (1, Gen.Const(Encoding.ASCII.GetBytes(string.Concat(Enumerable.Repeat("{\"name\":", 300)) + "1" + new string('}', 300)))),
        (1, Gen.Const(new byte[] { (byte)'{', (byte)'"', (byte)'n', (byte)'a', (byte)'m', (byte)'e', (byte)'"', (byte)':', (byte)'"', 0xFF, 0xFE, 0xC0, 0xAF, (byte)'"', (byte)'}' })),
        (1, Gen.Byte.Array[0, 200]));

    private static readonly Gen<string?> ContentType = Gen.Frequency(
        (8, Gen.Const<string?>("application/json")),
        (1, Gen.OneOf<string?>(null, "text/plain", "application/json; charset=utf-16", "application/x-www-form-urlencoded", "application/problem+json", "application/json; charset=\"", "*/*")));

    /// <summary>
    /// True for text the service would take as an id. Writes name only the test's own rows or
    /// something that is not an id: the fuzzing must not touch the rows other tests own.
    /// </summary>
    /// A JSON string counts too: the service's JSON reads numbers from strings (<c>"id":"12"</c>).
    private static bool IsId(string text) =>
        long.TryParse(Uri.UnescapeDataString(text).Trim('"'), System.Globalization.NumberStyles.AllowLeadingWhite | System.Globalization.NumberStyles.AllowTrailingWhite | System.Globalization.NumberStyles.AllowLeadingSign,
            System.Globalization.CultureInfo.InvariantCulture, out var v) && v > 0;

    private static Gen<FuzzRequest> Requests(Dictionary<string, long> authors, long itemId)
    {
        // Ids name the test's own author of the table the storage parameter selects (ids of
        // different tables overlap), or are not ids at all.
        string Sentinel(string storageQuery) => authors.GetValueOrDefault(TableOf(storageQuery) ?? "postgres", authors["postgres"]).ToString();
        Gen<string> Id(string storageQuery) => Gen.Frequency((2, Gen.Const(Sentinel(storageQuery))), (3, Junk.Where(j => !IsId(j))));
        var itemSegment = Gen.Frequency((2, Gen.Const(itemId.ToString())), (3, Junk.Where(j => !IsId(j))));
        Gen<byte[]> Body(Gen<string> json) => Gen.Frequency((4, json.Select(Encoding.UTF8.GetBytes)), (1, BrokenBody));
        return Gen.OneOf(
            StorageQuery.SelectMany(s => Id(s).Select(i => new FuzzRequest(HttpMethod.Get, $"/Author/Get?id={i}{s}", null, null))),
            Gen.Select(Junk, Junk, StorageQuery, (o, l, s) => new FuzzRequest(HttpMethod.Get, $"/Author/GetAll?offset={o}&limit={l}{s}", null, null)),
            StorageQuery.SelectMany(s => Gen.Select(Body(AuthorBody(Sentinel(s))), ContentType, (b, c) => new FuzzRequest(HttpMethod.Post, $"/Author/Save?x=1{s}", b, c))),
            StorageQuery.SelectMany(s => Gen.Select(Body(AuthorBody(Sentinel(s))), ContentType, (b, c) => new FuzzRequest(HttpMethod.Post, $"/Author/Update?x=1{s}", b, c))),
            StorageQuery.SelectMany(s => Id(s).Select(i => new FuzzRequest(HttpMethod.Post, $"/Author/Delete?id={i}{s}", null, null))),
            Gen.Select(itemSegment, StorageQuery, (i, s) => new FuzzRequest(HttpMethod.Get, $"/item/{i}/locations?x=1{s}", null, null)),
            Gen.Select(itemSegment, StorageQuery, Body(LocationsBody), ContentType, (i, s, b, c) => new FuzzRequest(HttpMethod.Post, $"/item/{i}/locations?x=1{s}", b, c)),
            Gen.Select(Gen.OneOf("/health", "/health/live", "/health/ready", "/storages"), Junk, (p, q) => new FuzzRequest(HttpMethod.Get, $"{p}?q={q}", null, null)),
            // Queues: the messages the fuzzing writes stay in the test instances' queues; the queue tests drain them first.
            Gen.Select(Gen.OneOf("/write/", "/read/", "/depth/"), Queue, (p, q) => new FuzzRequest(HttpMethod.Get, p + q, null, null)),
            Gen.Select(Queue, Body(JsonValue), ContentType, (q, b, c) => new FuzzRequest(HttpMethod.Post, "/write/" + q, b, c)),
            // Key-value: writes only under the fuzzing's own key prefix; any bytes as values; reads of any key; unknown paths.
            Gen.Select(Gen.OneOf(HttpMethod.Put, HttpMethod.Delete, HttpMethod.Get, HttpMethod.Patch), Junk, KvStorageQuery, Gen.Byte.Array[0, 2000],
                (m, k, s, b) => new FuzzRequest(m, $"/v0/entity?id=fuzz-kv-{k}{s}", m == HttpMethod.Put ? b : null, m == HttpMethod.Put ? "application/octet-stream" : null)),
            Gen.Select(Junk, KvStorageQuery, (k, s) => new FuzzRequest(HttpMethod.Get, $"/v0/entity?id={k}{s}", null, null)),
            Junk.Select(p => new FuzzRequest(HttpMethod.Get, $"/v0/{p}", null, null)));
    }
}
