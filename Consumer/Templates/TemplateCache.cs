using System.Collections.Concurrent;
using Microsoft.Extensions.Caching.Memory;
using Microsoft.Extensions.Logging;
using Notifications.Shared.Templates;

namespace Notifications.Consumer.Templates;

/// <summary>
/// The templates the handlers render, by name: each name's newest versions are read from the database at most once
/// per <see cref="TemplatesOptions.RefreshInterval"/> (concurrent handlers share one read), and each version is parsed
/// once, however often it is read again. An unknown name is remembered as such for the interval too. At most
/// <see cref="TemplatesOptions.CacheEntries"/> names are held, known or unknown (the least recently used make room: rows
/// naming a million distinct unknown templates do not make a million entries). A failed read is not remembered: the
/// handler retries the notification, and the next one reads again.
/// </summary>
internal sealed class TemplateCache : IDisposable
{
    private static readonly MemoryCacheEntryOptions OneUnit = new() { Size = 1 };
    private readonly ITemplateStore _store;
    private readonly TemplateRenderer _renderer;
    private readonly TemplatesOptions _options;
    private readonly TimeProvider _time;
    private readonly ILogger<TemplateCache> _logger;

    // Names read, with when; bounded. The reads in flight (one per name, shared) are apart: at most one per handler.
    private readonly MemoryCache _names;
    private readonly ConcurrentDictionary<string, Lazy<Task<IReadOnlyList<CachedTemplate>>>> _reading = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<(string Name, string Locale, int Version), CachedTemplate> _parsed = new();

    public TemplateCache(ITemplateStore store, TemplateRenderer renderer, TemplatesOptions options, TimeProvider time, ILogger<TemplateCache> logger)
    {
        _store = store;
        _renderer = renderer;
        _options = options;
        _time = time;
        _logger = logger;
        _names = new MemoryCache(new MemoryCacheOptions { SizeLimit = options.CacheEntries });
    }

    /// <summary>The names it holds (known or unknown).</summary>
    public int Count => _names.Count;

    /// <summary>The newest version of each locale of <paramref name="name"/>, the template's default locale first; empty if unknown.</summary>
    public async Task<IReadOnlyList<CachedTemplate>> GetAsync(string name, CancellationToken cancellationToken)
    {
        if (Fresh(name) is { } held)
        {
            return held;
        }

        // One read per name at a time: the first handler's; the others wait for it.
        var read = _reading.GetOrAdd(name, static (n, self) => new(() => self.ReadAsync(n)), this);
        try
        {
            return await read.Value.WaitAsync(cancellationToken);
        }
        catch (Exception ex) when (!cancellationToken.IsCancellationRequested)
        {
            TemplateLog.LoadFailed(_logger, name, ex);
            throw;
        }
    }

    public void Dispose() => _names.Dispose();

    private IReadOnlyList<CachedTemplate>? Fresh(string name) =>
        _names.TryGetValue(name, out Held? held) && _time.GetUtcNow() - held!.ReadAt < _options.RefreshInterval ? held.Versions : null;

    // Shared by every handler waiting for it, so not cancelled by any one of them; the command timeout bounds it.
    private async Task<IReadOnlyList<CachedTemplate>> ReadAsync(string name)
    {
        var readAt = _time.GetUtcNow();
        try
        {
            // A read that ended while this one was being set up has left a fresh answer.
            if (Fresh(name) is { } held)
            {
                return held;
            }

            var newest = await _store.GetNewestAsync(name, CancellationToken.None);
            var templates = Parse(name, newest);
            _names.Set(name, new Held(readAt, templates), OneUnit);
            return templates;
        }
        finally
        {
            _reading.TryRemove(name, out _);
        }
    }

    private IReadOnlyList<CachedTemplate> Parse(string name, IReadOnlyList<TemplateVersion> newest)
    {
        int parsed = 0;
        var templates = new CachedTemplate[newest.Count];
        for (int i = 0; i < newest.Count; i++)
        {
            var source = newest[i];
            templates[i] = _parsed.GetOrAdd((source.Name, source.Locale, source.Version), _ =>
            {
                parsed++;
                return Parse(source);
            });
        }

        Forget(name, templates);
        TemplateLog.Loaded(_logger, name, templates.Length, parsed);
        return templates;
    }

    private CachedTemplate Parse(TemplateVersion source)
    {
        try
        {
            return new CachedTemplate(source, _renderer.Compile(source), null);
        }
        catch (TemplateException ex)
        {
            TemplateLog.ParseFailed(_logger, ex.Message);
            return new CachedTemplate(source, null, ex.Message);
        }
    }

    // Versions superseded by a put are parsed templates no one renders any more. Only known names have parsed versions:
    // this holds the templates of the table, however many unknown names are asked for.
    private void Forget(string name, CachedTemplate[] current)
    {
        foreach (var key in _parsed.Keys)
        {
            if (key.Name == name && !current.Any(c => c.Source.Locale == key.Locale && c.Source.Version == key.Version))
            {
                _parsed.TryRemove(key, out _);
            }
        }
    }

    private sealed record Held(DateTimeOffset ReadAt, IReadOnlyList<CachedTemplate> Versions);
}
