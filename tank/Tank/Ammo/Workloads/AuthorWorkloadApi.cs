using IntegrationService.Seeding;

namespace Tank.Ammo.Workloads;

/// <summary>
/// The Author API: read = GET /Author/Get, update = POST /Author/Update of an id in
/// --author-ids, insert = POST /Author/Save. The service assigns a saved author's id, so ammo
/// cannot name it: inserts do not widen the ids later reads pick from (with "latest" the reads
/// lean towards the top of --author-ids).
/// </summary>
public sealed class AuthorWorkloadApi(AmmoOptions options) : WorkloadApi
{
    private readonly string _storage = Uri.EscapeDataString(options.Storage);

    public override long KeyCount => options.AuthorIdMax - options.AuthorIdMin + 1;

    public override HttpRequestSpec Read(long key) =>
        AmmoGenerator.Get($"/Author/Get?id={options.AuthorIdMin + key}&storage={_storage}", options);

    public override HttpRequestSpec Update(long key, SplitMix64 random) =>
        AmmoGenerator.Post($"/Author/Update?storage={_storage}", options, AuthorBodyFactory.Create(random, options.AuthorIdMin + key));

    public override HttpRequestSpec Insert(SplitMix64 random) =>
        AmmoGenerator.Post($"/Author/Save?storage={_storage}", options, AuthorBodyFactory.Create(random));
}
