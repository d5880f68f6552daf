using System.Collections.Concurrent;
using IntegrationService.Http;
using Prometheus;

namespace IntegrationService.Monitoring;

/// <summary>
/// One endpoint's labels in the request-duration histogram: its route pattern, where its storage
/// name comes from, and its labelled histogram children, created once per (storage, status).
/// </summary>
internal sealed class RouteLabels
{
    public const string Unmatched = "unmatched";

    private readonly ConcurrentDictionary<(string Storage, int Status), Histogram.Child> _children = new();
    private readonly Histogram _histogram;

    private RouteLabels(Histogram histogram, string route, StorageSource storage, bool excluded)
    {
        _histogram = histogram;
        Route = route;
        Storage = storage;
        Excluded = excluded;
    }

    public string Route { get; }

    public StorageSource Storage { get; }

    /// <summary>Requests to this endpoint are not timed (<c>/metrics</c> itself).</summary>
    public bool Excluded { get; }

    public static RouteLabels ForUnmatched(Histogram histogram) => new(histogram, Unmatched, StorageSource.None, excluded: false);

    /// <summary>
    /// The labels of <paramref name="endpoint"/>: a route endpoint's pattern, <see cref="Unmatched"/>
    /// for any other (the framework's 405 endpoints), so the label takes only as many values as there are routes.
    /// </summary>
    public static RouteLabels For(Endpoint endpoint, Histogram histogram, string excludedRoute)
    {
        if (endpoint is not RouteEndpoint { RoutePattern: var pattern }) return ForUnmatched(histogram);
        var route = Normalize(pattern.RawText);
        var storage = endpoint.Metadata.GetMetadata<ReadsStorageParameter>() is { } reads ? (reads.UsesKvDefault ? StorageSource.KvQuery : StorageSource.Query)
            : pattern.GetParameter("queue") is not null ? StorageSource.QueueRoute
            : StorageSource.None;
        return new(histogram, route, storage, string.Equals(route, excludedRoute, StringComparison.OrdinalIgnoreCase));
    }

    /// <summary>"/item/{id}/locations/" (a group's pattern joined with an empty one) as "/item/{id}/locations".</summary>
    public static string Normalize(string? pattern)
    {
        var trimmed = pattern?.Trim('/') ?? "";
        return "/" + trimmed;
    }

    public Histogram.Child Child(string storage, int status) =>
        _children.TryGetValue((storage, status), out var child) ? child : Add(storage, status);

    private Histogram.Child Add(string storage, int status) =>
        _children.GetOrAdd((storage, status), key => _histogram.WithLabels(Route, key.Storage, key.Status.ToString(System.Globalization.CultureInfo.InvariantCulture)));
}
