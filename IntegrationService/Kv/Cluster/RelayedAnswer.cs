namespace IntegrationService.Kv.Cluster;

/// <summary>
/// What a forwarding node relays of its owner's answer: the status, the raw <c>Content-Type</c>,
/// <c>Allow</c> and <c>Retry-After</c> values (nothing is parsed or re-formatted on the way through)
/// and the body, read whole, byte for byte.
/// </summary>
internal readonly struct RelayedAnswer(int status, string? contentType, string? allow, string? retryAfter, byte[] body)
{
    public int Status => status;

    public byte[] Body => body;

    /// <summary>Writes the answer as this request's, with <see cref="KvCluster.OwnerHeader"/> naming <paramref name="owner"/>.</summary>
    public Task WriteAsync(HttpResponse answer, string owner, CancellationToken aborted)
    {
        answer.StatusCode = status;
        answer.Headers[KvCluster.OwnerHeader] = owner;
        if (contentType is not null) answer.ContentType = contentType;
        if (allow is not null) answer.Headers.Allow = allow;
        if (retryAfter is not null) answer.Headers.RetryAfter = retryAfter;
        answer.ContentLength = body.Length;
        return body.Length == 0 ? Task.CompletedTask : answer.Body.WriteAsync(body, aborted).AsTask();
    }
}
