using Notifications.Shared.Templates;

namespace Notifications.UnitTests.Templates;

/// <summary>A template table in memory that counts its reads and can be made to fail.</summary>
internal sealed class InMemoryTemplateStore : ITemplateStore
{
    private readonly List<TemplateVersion> _versions = [];

    public int Reads { get; private set; }

    public Exception? Failure { get; set; }

    public void Add(TemplateVersion version) => _versions.Add(version);

    public Task<IReadOnlyList<TemplateVersion>> GetNewestAsync(string name, CancellationToken cancellationToken)
    {
        Reads++;
        if (Failure is { } failure)
        {
            return Task.FromException<IReadOnlyList<TemplateVersion>>(failure);
        }

        IReadOnlyList<TemplateVersion> newest = _versions.Where(v => v.Name == name).GroupBy(v => v.Locale)
            .Select(g => g.MaxBy(v => v.Version)!).ToList();
        return Task.FromResult(newest);
    }

    public Task<int> PutAsync(string name, string locale, string subject, string? textBody, string? htmlBody, string? variables, CancellationToken cancellationToken) =>
        throw new NotSupportedException();

    public Task<IReadOnlyList<TemplateListing>> ListAsync(CancellationToken cancellationToken) => throw new NotSupportedException();
}
