/**
 * Words too common to be a topic, lower-case. English in full (the function words of the usual search-engine lists,
 * with their apostrophe forms, and the filler of social posts); Spanish, French, German and Portuguese by their most
 * frequent function words. Words under three letters are left out: topics drop them anyway. Words that are also
 * English content words (German "die", "hat"; French "son") are left out too.
 */
const english = `
about above after again against all also although always among and another any anyone anything are aren't around
because been before being below between both but can can't cannot could couldn't did didn't does doesn't doing don't
done down during each either else enough even ever every few for from further get gets getting got had hadn't has
hasn't have haven't having her here here's hers herself him himself his how how's however i'd i'll i'm i've into isn't
it's its itself just let let's like made make many may maybe might more most much must mustn't myself need never
new nor not now off often once one only other others our ours ourselves out over own per perhaps quite rather really
same say says see seem seems shall shan't she she'd she'll she's should shouldn't since some something still such
than that that's the their theirs them themselves then there there's these they they'd they'll they're they've thing
things this those though through thus too under until upon very via want wants was wasn't way well were weren't what
what's when when's where where's whether which while who who's whom whose why why's will with within without won't
would wouldn't yes yet you you'd you'll you're you've your yours yourself yourselves
today yesterday tomorrow lot lots thanks thank please
`

const spanish = `
que los las por con una para del como más pero sus este esta estos estas fue son muy sin sobre también hay cuando
todo todos esto ese esa eso ser está están era hasta desde porque entre donde quien nos les ella ellos mis tus
`

const french = `
les des une est pas pour que qui dans sur avec plus par mais nous vous ils elle elles ses aux cette ces sont été
être tout tous comme leur leurs aussi bien fait très sans sous chez mon ton notre votre
`

const german = `
der das und ist den dem des ein eine einen einem einer nicht mit auf für sich auch von wie aber wir ihr sie noch bei
nach zum zur aus nur oder wenn dass wird sind haben kann mehr schon sehr über unter ich mein dein sein
`

const portuguese = `
que não uma com para por mais como mas dos das seu sua seus suas foi são está isso este esta essa esse ele ela
eles elas nos pelo pela também muito sem sobre quando até
`

const words = (list: string) => list.split(/\s+/).filter((word) => word.length > 0)

/** The stop words of every language above, lower-case, apostrophes as U+0027. */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  ...words(english),
  ...words(spanish),
  ...words(french),
  ...words(german),
  ...words(portuguese)
])
