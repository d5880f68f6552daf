using System.Net.Http.Headers;

namespace Crash;

/// <summary>How one HTTP exchange ended: a status and body, or no answer at all.</summary>
internal readonly record struct HttpAnswer(int Status, byte[] Body, ResponseClass? NoAnswer)
{
    public static HttpAnswer TimedOut => new(0, [], ResponseClass.Timeout);
    public static HttpAnswer ConnectionFailed => new(0, [], ResponseClass.Connection);
}

/// <summary>The one HttpClient of a crash test, and a send that turns exceptions into timeouts and connection errors.</summary>
internal static class CrashHttp
{
    private static readonly MediaTypeHeaderValue JsonType = new("application/json");

    public static HttpClient Create(long timeoutMs)
    {
        var handler = new SocketsHttpHandler
        {
            PooledConnectionLifetime = Timeout.InfiniteTimeSpan,
            MaxConnectionsPerServer = 256,
            ConnectTimeout = TimeSpan.FromMilliseconds(timeoutMs),
            UseCookies = false,
            AllowAutoRedirect = false,
        };
        return new HttpClient(handler) { Timeout = TimeSpan.FromMilliseconds(timeoutMs) };
    }

    /// <summary>
    /// A GET when <paramref name="body"/> is null, else a POST (or <paramref name="method"/>) of it as JSON;
    /// the whole answer is read within the client's timeout.
    /// </summary>
    public static async Task<HttpAnswer> SendAsync(HttpClient client, string url, byte[]? body, HttpMethod? method = null)
    {
        try
        {
            using var request = new HttpRequestMessage(method ?? (body is null ? HttpMethod.Get : HttpMethod.Post), url);
            if (body is not null) request.Content = new ByteArrayContent(body) { Headers = { ContentType = JsonType } };
            using var response = await client.SendAsync(request).ConfigureAwait(false);
            var content = await response.Content.ReadAsByteArrayAsync().ConfigureAwait(false);
            return new HttpAnswer((int)response.StatusCode, content, null);
        }
        catch (OperationCanceledException)
        {
            // Nothing else cancels these requests: HttpClient.Timeout expired.
            return HttpAnswer.TimedOut;
        }
        catch (Exception e) when (e is HttpRequestException or IOException)
        {
            return HttpAnswer.ConnectionFailed;
        }
    }

    /// <summary>Statuses a read is retried on: the API or its backend is not (yet) there.</summary>
    public static bool Retryable(int status) => status is 408 or 429 or >= 500;
}
