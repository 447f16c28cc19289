using System.ComponentModel.DataAnnotations;

namespace Notifications.Consumer.Templates;

/// <summary>Rendering of templated notifications. Section <c>Templates</c>; env vars <c>Templates__RefreshInterval</c> etc.</summary>
internal sealed class TemplatesOptions
{
    public const string SectionName = "Templates";

    /// <summary>
    /// How long a template name's versions are used before the table is read again: a <c>put</c> reaches every
    /// consumer within this long. A version is parsed once, however often it is read again.
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:00", "01:00:00")]
    public TimeSpan RefreshInterval { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>
    /// The most template names a consumer holds, known or unknown (the least recently used make room): rows naming
    /// many distinct unknown templates cost a bounded amount of memory. Each name is a read of the table when not held.
    /// </summary>
    [Range(10, 1_000_000)]
    public int CacheEntries { get; set; } = 10_000;

    /// <summary>The locale tried after the wanted one and its parents, before the template's own default (its first locale).</summary>
    [Required, RegularExpression("^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$")]
    public string DefaultLocale { get; set; } = "en";
}
