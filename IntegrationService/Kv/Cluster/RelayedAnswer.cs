using System.Net.Http.Headers;

namespace IntegrationService.Kv.Cluster;

/// <summary>
/// What a forwarding node relays of its owner's answer: the status, the raw <c>Content-Type</c>,
/// <c>Allow</c> and <c>Retry-After</c> values (nothing is parsed or re-formatted on the way through)
/// and the body, read whole, byte for byte.
/// </summary>
internal readonly struct RelayedAnswer(HttpResponseMessage response, byte[] body)
{
    private readonly int _status = (int)response.StatusCode;
    private readonly string? _contentType = Raw(response.Content.Headers.NonValidated, "Content-Type");
    private readonly string? _allow = Raw(response.Content.Headers.NonValidated, "Allow");
    private readonly string? _retryAfter = Raw(response.Headers.NonValidated, "Retry-After");
    private readonly byte[] _body = body;

    /// <summary>Writes the answer as this request's, with <see cref="KvCluster.OwnerHeader"/> naming <paramref name="owner"/>.</summary>
    public Task WriteAsync(HttpResponse answer, string owner, CancellationToken aborted)
    {
        answer.StatusCode = _status;
        answer.Headers[KvCluster.OwnerHeader] = owner;
        if (_contentType is not null) answer.ContentType = _contentType;
        if (_allow is not null) answer.Headers.Allow = _allow;
        if (_retryAfter is not null) answer.Headers.RetryAfter = _retryAfter;
        answer.ContentLength = _body.Length;
        return _body.Length == 0 ? Task.CompletedTask : answer.Body.WriteAsync(_body, aborted).AsTask();
    }

    private static string? Raw(HttpHeadersNonValidated headers, string name) =>
        headers.TryGetValues(name, out var values) ? values.ToString() : null;
}
