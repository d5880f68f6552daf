using IntegrationService.Storage;

namespace IntegrationService.Monitoring;

/// <summary>A backend client's counters for <c>/metrics</c>; <paramref name="InFlight"/> is read at scrape time.</summary>
public sealed record BackendActivitySource(BackendActivity Activity, Func<long> InFlight)
{
    public string Backend => Activity.Backend;
}
