namespace Notifications.Shared.Templates;

/// <summary>The <c>template</c> table, one implementation per SQL dialect.</summary>
public interface ITemplateStore
{
    /// <summary>
    /// The newest version of each locale of <paramref name="name"/>, ordered by when the locale was first put: the
    /// first is the template's own default locale. Empty when no such template exists.
    /// </summary>
    Task<IReadOnlyList<TemplateVersion>> GetNewestAsync(string name, CancellationToken cancellationToken);

    /// <summary>Adds a version of <paramref name="name"/> in <paramref name="locale"/> (the newest plus one); returns its number.</summary>
    Task<int> PutAsync(string name, string locale, string subject, string? textBody, string? htmlBody, string? variables, CancellationToken cancellationToken);

    /// <summary>Every template name and locale with its newest version, by name and locale.</summary>
    Task<IReadOnlyList<TemplateListing>> ListAsync(CancellationToken cancellationToken);
}
