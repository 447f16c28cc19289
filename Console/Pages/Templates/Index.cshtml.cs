using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Mvc;
using Notifications.Admin;
using Notifications.Shared.Templates;

namespace Notifications.OperatorConsole.Pages.Templates;

/// <summary>
/// Templates: every template and locale (as <c>admin templates list</c>), and a preview of one with sample data typed in, in
/// a locale, rendered by <see cref="TemplatePreview.RenderAsync"/> as <c>admin templates preview</c> renders it. A preview
/// sends and changes nothing, so it is a GET a viewer may run. The output is shown encoded, the HTML body in a sandboxed frame.
/// </summary>
internal sealed class IndexModel(AdminContext admin, IAuthorizationService authorization, ILogger<IndexModel> logger)
    : ConsolePageModel(authorization, logger)
{
    /// <summary>Longer than any template name (1 to 200 characters): refused before a query.</summary>
    private const int MaxNameLength = 200;

    [BindProperty(SupportsGet = true)]
    public string? Name { get; set; }

    [BindProperty(SupportsGet = true)]
    public string? Locale { get; set; }

    [BindProperty(SupportsGet = true)]
    public string? Data { get; set; }

    public IReadOnlyList<TemplateListing> Templates { get; private set; } = [];

    public (TemplateVersion Chosen, RenderedTemplate Rendered)? Preview { get; private set; }

    public string? PreviewError { get; private set; }

    public async Task OnGetAsync(CancellationToken cancellationToken)
    {
        await ReadRoleAsync();
        Templates = await ReadAsync(() => admin.DatabaseAsync(() => admin.Templates.ListAsync(cancellationToken)), []);

        if (string.IsNullOrWhiteSpace(Name))
        {
            return;
        }

        try
        {
            Preview = Name.Length > MaxNameLength || Name.Any(char.IsControl) || (Locale ?? "").Any(char.IsControl)
                ? throw new AdminException($"unknown template: '{Name[..Math.Min(Name.Length, 80)]}'", ExitCodes.Failed)
                : await TemplatePreview.RenderAsync(admin, Name, string.IsNullOrWhiteSpace(Data) ? "{}" : Data, string.IsNullOrWhiteSpace(Locale) ? null : Locale, cancellationToken);
        }
        catch (AdminException ex)
        {
            PreviewError = ex.Message;
        }
    }
}
