using Microsoft.Extensions.Logging.Abstractions;
using Notifications.Consumer.Templates;
using Notifications.Shared.Templates;
using Notifications.UnitTests.Consumer;

namespace Notifications.UnitTests.Templates;

public sealed class TemplateCacheTests
{
    private readonly InMemoryTemplateStore _store = new();
    private readonly ManualTime _time = new(DateTimeOffset.UnixEpoch);
    private readonly TemplateCache _cache;

    public TemplateCacheTests()
    {
        _store.Add(OrderConfirmation.Version());
        _cache = new TemplateCache(_store, new TemplateRenderer(), new TemplatesOptions { RefreshInterval = TimeSpan.FromSeconds(10) }, _time, NullLogger<TemplateCache>.Instance);
    }

    [Fact]
    public async Task GetAsync_WithinTheInterval_ReadsTheTableOnce()
    {
        var first = await _cache.GetAsync("order-confirmation", CancellationToken.None);
        _time.Advance(TimeSpan.FromSeconds(9));
        var second = await _cache.GetAsync("order-confirmation", CancellationToken.None);

        Assert.Equal(1, _store.Reads);
        Assert.Same(first[0].Template, second[0].Template);
    }

    [Fact]
    public async Task GetAsync_ConcurrentCallers_ShareOneRead()
    {
        await Task.WhenAll(Enumerable.Range(0, 16).Select(_ => _cache.GetAsync("order-confirmation", CancellationToken.None)));

        Assert.Equal(1, _store.Reads);
    }

    [Fact]
    public async Task GetAsync_AfterTheIntervalSameVersion_ReadsAgainButDoesNotParseAgain()
    {
        var first = await _cache.GetAsync("order-confirmation", CancellationToken.None);
        _time.Advance(TimeSpan.FromSeconds(10));
        var second = await _cache.GetAsync("order-confirmation", CancellationToken.None);

        Assert.Equal(2, _store.Reads);
        Assert.Same(first[0].Template, second[0].Template);
    }

    [Fact]
    public async Task GetAsync_NewVersionPut_RenderedAfterTheInterval()
    {
        await _cache.GetAsync("order-confirmation", CancellationToken.None);
        _store.Add(OrderConfirmation.Version(version: 2, subject: "v2 {{ order.number }}"));

        var before = await _cache.GetAsync("order-confirmation", CancellationToken.None);
        _time.Advance(TimeSpan.FromSeconds(11));
        var after = await _cache.GetAsync("order-confirmation", CancellationToken.None);

        Assert.Equal(1, before[0].Source.Version);
        Assert.Equal(2, after[0].Source.Version);
    }

    [Fact]
    public async Task GetAsync_VersionThatDoesNotParse_KeptWithItsReason()
    {
        _store.Add(OrderConfirmation.Version(locale: "de", text: "{% if %}"));

        var versions = await _cache.GetAsync("order-confirmation", CancellationToken.None);

        var german = Assert.Single(versions, v => v.Source.Locale == "de");
        Assert.Null(german.Template);
        Assert.Contains("does not parse", german.ParseError, StringComparison.Ordinal);
    }

    [Fact]
    public async Task GetAsync_ReadFails_IsNotRememberedAndTheNextCallReadsAgain()
    {
        _store.Failure = new TimeoutException("database down");
        await Assert.ThrowsAsync<TimeoutException>(() => _cache.GetAsync("order-confirmation", CancellationToken.None));
        _store.Failure = null;

        var versions = await _cache.GetAsync("order-confirmation", CancellationToken.None);

        Assert.Single(versions);
        Assert.Equal(2, _store.Reads);
    }

    [Fact]
    public async Task GetAsync_ManyDistinctUnknownNames_EntriesStayUnderTheBound()
    {
        // Rows naming a million distinct unknown templates (a typo in a generated name, a hostile app): the cache keeps a
        // bounded number of them (the default Templates:CacheEntries, 10,000), not one entry per name ever asked for.
        for (int i = 0; i < 30_000; i++)
        {
            Assert.Empty(await _cache.GetAsync($"no-such-template-{i}", CancellationToken.None));
        }

        Assert.InRange(_cache.Count, 1, 10_000);
        Assert.Single(await _cache.GetAsync("order-confirmation", CancellationToken.None));
    }

    [Fact]
    public async Task GetAsync_UnknownName_IsEmpty()
    {
        Assert.Empty(await _cache.GetAsync("no-such-template", CancellationToken.None));
    }
}
