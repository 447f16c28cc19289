using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;
using Notifications.Shared.Templates;

namespace Notifications.Consumer.Templates;

/// <summary>
/// The templates the handlers render, by name: each name's newest versions are read from the database at most once
/// per <see cref="TemplatesOptions.RefreshInterval"/> (concurrent handlers share one read), and each version is parsed
/// once, however often it is read again. An unknown name is remembered as such for the interval too. A failed read is
/// not remembered: the handler retries the notification, and the next one reads again.
/// </summary>
internal sealed class TemplateCache(ITemplateStore store, TemplateRenderer renderer, TemplatesOptions options, TimeProvider time, ILogger<TemplateCache> logger)
{
    private readonly ConcurrentDictionary<string, Entry> _entries = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<(string Name, string Locale, int Version), CachedTemplate> _parsed = new();

    /// <summary>The names it holds (known or unknown), for the tests and the metrics.</summary>
    public int Count => _entries.Count;

    /// <summary>The newest version of each locale of <paramref name="name"/>, the template's default locale first; empty if unknown.</summary>
    public async Task<IReadOnlyList<CachedTemplate>> GetAsync(string name, CancellationToken cancellationToken)
    {
        while (true)
        {
            var now = time.GetUtcNow();
            if (_entries.TryGetValue(name, out var entry) && now - entry.ReadAt < options.RefreshInterval)
            {
                return await AwaitAsync(name, entry, cancellationToken);
            }

            // One handler replaces the stale entry; the others find the new one on their next turn.
            var fresh = new Entry(now, new Lazy<Task<IReadOnlyList<CachedTemplate>>>(() => ReadAsync(name)));
            bool replaced = entry is null ? _entries.TryAdd(name, fresh) : _entries.TryUpdate(name, fresh, entry);
            if (replaced)
            {
                return await AwaitAsync(name, fresh, cancellationToken);
            }
        }
    }

    private async Task<IReadOnlyList<CachedTemplate>> AwaitAsync(string name, Entry entry, CancellationToken cancellationToken)
    {
        try
        {
            return await entry.Versions.Value.WaitAsync(cancellationToken);
        }
        catch (Exception ex) when (!cancellationToken.IsCancellationRequested)
        {
            _entries.TryRemove(KeyValuePair.Create(name, entry));
            TemplateLog.LoadFailed(logger, name, ex);
            throw;
        }
    }

    // Shared by every handler waiting for it, so not cancelled by any one of them; the command timeout bounds it.
    private async Task<IReadOnlyList<CachedTemplate>> ReadAsync(string name)
    {
        var newest = await store.GetNewestAsync(name, CancellationToken.None);
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
        TemplateLog.Loaded(logger, name, templates.Length, parsed);
        return templates;
    }

    private CachedTemplate Parse(TemplateVersion source)
    {
        try
        {
            return new CachedTemplate(source, renderer.Compile(source), null);
        }
        catch (TemplateException ex)
        {
            TemplateLog.ParseFailed(logger, ex.Message);
            return new CachedTemplate(source, null, ex.Message);
        }
    }

    // Versions superseded by a put are parsed templates no one renders any more.
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

    private sealed record Entry(DateTimeOffset ReadAt, Lazy<Task<IReadOnlyList<CachedTemplate>>> Versions);
}
