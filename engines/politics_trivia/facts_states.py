"""Fact tables about the 50 states and D.C., written by hand as Python data.

Only facts we are certain of are here. Deliberately left out: state birds,
flowers, mottos and trees (too easy to get wrong), the admission order of North
and South Dakota (both were admitted the same day; their order is a convention),
and the largest city of Alabama (Huntsville passed Birmingham only recently, so
players would rightly dispute it).
"""
# ruff: noqa: E501  (a table of facts: one fact a row, as long as the fact, so a row reads and diffs as one)
from __future__ import annotations

from typing import NamedTuple


class StateFacts(NamedTuple):
    code: str
    name: str
    capital: str | None          # None for D.C.
    nickname: str | None         # the most common official nickname
    also_nicknamed: tuple[str, ...]  # other well-known nicknames (accepted, never used as wrong choices)
    admitted: int | None         # year of statehood (ratification year for the original 13)
    order: int | None            # order of admission, 1..50 (None where it is only a convention)
    largest_city: str | None     # by population inside city limits, 2020 census (None = left out)
    ev: int                      # electoral votes for the 2024 and 2028 elections


STATES: tuple[StateFacts, ...] = (
    StateFacts("AL", "Alabama", "Montgomery", "Yellowhammer State", ("Heart of Dixie",), 1819, 22, None, 9),
    StateFacts("AK", "Alaska", "Juneau", "Last Frontier", (), 1959, 49, "Anchorage", 3),
    StateFacts("AZ", "Arizona", "Phoenix", "Grand Canyon State", (), 1912, 48, "Phoenix", 11),
    StateFacts("AR", "Arkansas", "Little Rock", "Natural State", (), 1836, 25, "Little Rock", 6),
    StateFacts("CA", "California", "Sacramento", "Golden State", (), 1850, 31, "Los Angeles", 54),
    StateFacts("CO", "Colorado", "Denver", "Centennial State", (), 1876, 38, "Denver", 10),
    StateFacts("CT", "Connecticut", "Hartford", "Constitution State", ("Nutmeg State",), 1788, 5, "Bridgeport", 7),
    StateFacts("DE", "Delaware", "Dover", "First State", ("Diamond State",), 1787, 1, "Wilmington", 3),
    StateFacts("DC", "District of Columbia", None, None, (), None, None, None, 3),
    StateFacts("FL", "Florida", "Tallahassee", "Sunshine State", (), 1845, 27, "Jacksonville", 30),
    StateFacts("GA", "Georgia", "Atlanta", "Peach State", (), 1788, 4, "Atlanta", 16),
    StateFacts("HI", "Hawaii", "Honolulu", "Aloha State", (), 1959, 50, "Honolulu", 4),
    StateFacts("ID", "Idaho", "Boise", "Gem State", (), 1890, 43, "Boise", 4),
    StateFacts("IL", "Illinois", "Springfield", "Prairie State", ("Land of Lincoln",), 1818, 21, "Chicago", 19),
    StateFacts("IN", "Indiana", "Indianapolis", "Hoosier State", (), 1816, 19, "Indianapolis", 11),
    StateFacts("IA", "Iowa", "Des Moines", "Hawkeye State", (), 1846, 29, "Des Moines", 6),
    StateFacts("KS", "Kansas", "Topeka", "Sunflower State", (), 1861, 34, "Wichita", 6),
    StateFacts("KY", "Kentucky", "Frankfort", "Bluegrass State", (), 1792, 15, "Louisville", 8),
    StateFacts("LA", "Louisiana", "Baton Rouge", "Pelican State", (), 1812, 18, "New Orleans", 8),
    StateFacts("ME", "Maine", "Augusta", "Pine Tree State", (), 1820, 23, "Portland", 4),
    StateFacts("MD", "Maryland", "Annapolis", "Old Line State", ("Free State",), 1788, 7, "Baltimore", 10),
    StateFacts("MA", "Massachusetts", "Boston", "Bay State", (), 1788, 6, "Boston", 11),
    StateFacts("MI", "Michigan", "Lansing", "Great Lakes State", ("Wolverine State",), 1837, 26, "Detroit", 15),
    StateFacts("MN", "Minnesota", "Saint Paul", "North Star State", ("Land of 10,000 Lakes", "Gopher State"), 1858, 32, "Minneapolis", 10),
    StateFacts("MS", "Mississippi", "Jackson", "Magnolia State", (), 1817, 20, "Jackson", 6),
    StateFacts("MO", "Missouri", "Jefferson City", "Show-Me State", (), 1821, 24, "Kansas City", 10),
    StateFacts("MT", "Montana", "Helena", "Treasure State", ("Big Sky Country",), 1889, 41, "Billings", 4),
    StateFacts("NE", "Nebraska", "Lincoln", "Cornhusker State", (), 1867, 37, "Omaha", 5),
    StateFacts("NV", "Nevada", "Carson City", "Silver State", ("Battle Born State",), 1864, 36, "Las Vegas", 6),
    StateFacts("NH", "New Hampshire", "Concord", "Granite State", (), 1788, 9, "Manchester", 4),
    StateFacts("NJ", "New Jersey", "Trenton", "Garden State", (), 1787, 3, "Newark", 14),
    StateFacts("NM", "New Mexico", "Santa Fe", "Land of Enchantment", (), 1912, 47, "Albuquerque", 5),
    StateFacts("NY", "New York", "Albany", "Empire State", (), 1788, 11, "New York City", 28),
    StateFacts("NC", "North Carolina", "Raleigh", "Tar Heel State", ("Old North State",), 1789, 12, "Charlotte", 16),
    StateFacts("ND", "North Dakota", "Bismarck", "Peace Garden State", (), 1889, None, "Fargo", 3),
    StateFacts("OH", "Ohio", "Columbus", "Buckeye State", (), 1803, 17, "Columbus", 17),
    StateFacts("OK", "Oklahoma", "Oklahoma City", "Sooner State", (), 1907, 46, "Oklahoma City", 7),
    StateFacts("OR", "Oregon", "Salem", "Beaver State", (), 1859, 33, "Portland", 8),
    StateFacts("PA", "Pennsylvania", "Harrisburg", "Keystone State", (), 1787, 2, "Philadelphia", 19),
    StateFacts("RI", "Rhode Island", "Providence", "Ocean State", (), 1790, 13, "Providence", 4),
    StateFacts("SC", "South Carolina", "Columbia", "Palmetto State", (), 1788, 8, "Charleston", 9),
    StateFacts("SD", "South Dakota", "Pierre", "Mount Rushmore State", (), 1889, None, "Sioux Falls", 3),
    StateFacts("TN", "Tennessee", "Nashville", "Volunteer State", (), 1796, 16, "Nashville", 11),
    StateFacts("TX", "Texas", "Austin", "Lone Star State", (), 1845, 28, "Houston", 40),
    StateFacts("UT", "Utah", "Salt Lake City", "Beehive State", (), 1896, 45, "Salt Lake City", 6),
    StateFacts("VT", "Vermont", "Montpelier", "Green Mountain State", (), 1791, 14, "Burlington", 3),
    StateFacts("VA", "Virginia", "Richmond", "Old Dominion", (), 1788, 10, "Virginia Beach", 13),
    StateFacts("WA", "Washington", "Olympia", "Evergreen State", (), 1889, 42, "Seattle", 12),
    StateFacts("WV", "West Virginia", "Charleston", "Mountain State", (), 1863, 35, "Charleston", 4),
    StateFacts("WI", "Wisconsin", "Madison", "Badger State", (), 1848, 30, "Milwaukee", 10),
    StateFacts("WY", "Wyoming", "Cheyenne", "Equality State", ("Cowboy State",), 1890, 44, "Cheyenne", 3),
)

BY_CODE: dict[str, StateFacts] = {s.code: s for s in STATES}
CODES: tuple[str, ...] = tuple(s.code for s in STATES)
STATE_CODES: tuple[str, ...] = tuple(c for c in CODES if c != "DC")

# Electoral votes 2024 (copied from /work/shared/data/electoral_votes.csv, column ev_2024).
EV_2024: dict[str, int] = {s.code: s.ev for s in STATES}

# The thirteen original states (ratified the Constitution 1787-1790).
ORIGINAL_13: frozenset[str] = frozenset(
    {"DE", "PA", "NJ", "GA", "CT", "MA", "MD", "SC", "NH", "VA", "NY", "NC", "RI"})

# Arizona-Colorado and Utah-New Mexico touch only at the Four Corners point.
FOUR_CORNERS: tuple[tuple[str, str], ...] = (("AZ", "CO"), ("UT", "NM"))

# Pairs that touch only at a point (Four Corners) or across water. They are not
# in LAND_BORDERS, but a player could fairly say they "border", so they are never
# offered as a wrong choice in a "Which state borders X?" question.
NEAR_BORDERS: frozenset[frozenset[str]] = frozenset(frozenset(p) for p in (
    *FOUR_CORNERS,
    ("MI", "MN"), ("MI", "IL"),      # across Lake Superior / Lake Michigan
    ("NY", "RI"),                    # across Block Island Sound
))

# Presidents by state of birth (certain cases only; Andrew Jackson's birthplace on
# the North/South Carolina line is disputed and left out).
BIRTH_STATE: dict[str, str] = {
    "George Washington": "VA", "John Adams": "MA", "Thomas Jefferson": "VA",
    "James Madison": "VA", "James Monroe": "VA", "John Quincy Adams": "MA",
    "Martin Van Buren": "NY", "William Henry Harrison": "VA", "John Tyler": "VA",
    "James K. Polk": "NC", "Zachary Taylor": "VA", "Millard Fillmore": "NY",
    "Franklin Pierce": "NH", "James Buchanan": "PA", "Abraham Lincoln": "KY",
    "Andrew Johnson": "NC", "Ulysses S. Grant": "OH", "Rutherford B. Hayes": "OH",
    "James A. Garfield": "OH", "Chester A. Arthur": "VT", "Grover Cleveland": "NJ",
    "Benjamin Harrison": "OH", "William McKinley": "OH", "Theodore Roosevelt": "NY",
    "William Howard Taft": "OH", "Woodrow Wilson": "VA", "Warren G. Harding": "OH",
    "Calvin Coolidge": "VT", "Herbert Hoover": "IA", "Franklin D. Roosevelt": "NY",
    "Harry S. Truman": "MO", "Dwight D. Eisenhower": "TX", "John F. Kennedy": "MA",
    "Lyndon B. Johnson": "TX", "Richard Nixon": "CA", "Gerald Ford": "NE",
    "Jimmy Carter": "GA", "Ronald Reagan": "IL", "George H. W. Bush": "MA",
    "Bill Clinton": "AR", "George W. Bush": "CT", "Barack Obama": "HI",
    "Donald Trump": "NY", "Joe Biden": "PA",
}

# One hand-written fact question per entry: (id-suffix, state, text, answer, wrong choices, accept, free_text)
STATE_EXTRAS: tuple[tuple[str, str, str, str, tuple[str, ...], tuple[str, ...], bool], ...] = (
    # Superlatives and landmarks tied to one state
    ("ak-largest-area", "AK", "Which is the largest U.S. state by area?", "Alaska", ("Texas", "California", "Montana"), (), True),
    ("ak-purchase", "AK", "From which country did the United States buy Alaska in 1867?", "Russia", ("Great Britain", "Canada", "Spain"), (), True),
    ("ak-denali", "AK", "North America's highest peak, Denali, is in which state?", "Alaska", ("Washington", "Colorado", "Montana"), (), True),
    ("hi-islands", "HI", "Which is the only U.S. state made up entirely of islands?", "Hawaii", ("Alaska", "Florida", "Rhode Island"), (), True),
    ("hi-pearl-harbor", "HI", "Pearl Harbor, attacked on December 7, 1941, is in which state?", "Hawaii", ("California", "Alaska", "Washington"), (), True),
    ("hi-obama", "HI", "Which president was born in Hawaii?", "Barack Obama", ("Bill Clinton", "Joe Biden", "George W. Bush"), ("Obama",), True),
    ("ri-smallest", "RI", "Which is the smallest U.S. state by area?", "Rhode Island", ("Delaware", "Connecticut", "Vermont"), (), True),
    ("ca-most-people", "CA", "Which state has the most people?", "California", ("Texas", "Florida", "New York"), (), True),
    ("ca-most-ev", "CA", "Which state has the most electoral votes?", "California", ("Texas", "Florida", "New York"), (), True),
    ("ca-death-valley", "CA", "Death Valley, the lowest point in North America, is in which state?", "California", ("Nevada", "Arizona", "Utah"), (), True),
    ("ca-whitney", "CA", "Mount Whitney, the highest peak in the lower 48 states, is in which state?", "California", ("Colorado", "Washington", "Nevada"), (), True),
    ("ca-gold-rush", "CA", "Gold found at Sutter's Mill in 1848 set off a gold rush in which state-to-be?", "California", ("Colorado", "Nevada", "Alaska"), (), True),
    ("wy-fewest-people", "WY", "Which state has the fewest people?", "Wyoming", ("Vermont", "Alaska", "North Dakota"), (), True),
    ("wy-yellowstone", "WY", "Most of Yellowstone, the first national park, lies in which state?", "Wyoming", ("Montana", "Idaho", "Colorado"), (), True),
    ("wy-women-vote", "WY", "Which territory, later a state, was the first to give women the vote, in 1869?", "Wyoming", ("Utah", "Colorado", "Idaho"), (), True),
    ("tx-second-area", "TX", "Which is the second-largest state by area?", "Texas", ("California", "Montana", "Alaska"), (), True),
    ("tx-alamo", "TX", "The Alamo, besieged in 1836, stands in which city?", "San Antonio", ("Houston", "Austin", "El Paso"), (), True),
    ("tx-annexed", "TX", "Which state was an independent republic before joining the Union in 1845?", "Texas", ("Oklahoma", "Louisiana", "Arizona"), (), True),
    ("tx-second-ev", "TX", "Which state has the second-most electoral votes?", "Texas", ("Florida", "New York", "California"), (), True),
    ("fl-third-ev", "FL", "Which state has the third-most electoral votes?", "Florida", ("New York", "Pennsylvania", "Illinois"), (), True),
    ("fl-everglades", "FL", "Everglades National Park is in which state?", "Florida", ("Louisiana", "Georgia", "South Carolina"), (), True),
    ("fl-spain", "FL", "From which country did the United States acquire Florida in 1819?", "Spain", ("France", "Great Britain", "Mexico"), (), True),
    ("fl-cape-canaveral", "FL", "Cape Canaveral, launch site of Apollo 11, is in which state?", "Florida", ("Texas", "California", "Alabama"), (), True),
    ("me-one-neighbour", "ME", "Which is the only state that borders exactly one other state?", "Maine", ("Vermont", "Rhode Island", "Delaware"), (), True),
    ("me-one-syllable", "ME", "Which is the only state whose name has just one syllable?", "Maine", ("Utah", "Ohio", "Iowa"), (), True),
    ("me-acadia", "ME", "Acadia National Park is in which state?", "Maine", ("Vermont", "New Hampshire", "Massachusetts"), (), True),
    ("de-first", "DE", "Which state was the first to ratify the Constitution, in 1787?", "Delaware", ("Pennsylvania", "New Jersey", "Virginia"), (), True),
    ("sd-rushmore", "SD", "Mount Rushmore is in which state?", "South Dakota", ("North Dakota", "Wyoming", "Montana"), (), True),
    ("sd-badlands", "SD", "Badlands National Park is in which state?", "South Dakota", ("North Dakota", "Nebraska", "Montana"), (), True),
    ("ny-liberty", "NY", "The Statue of Liberty stands in the harbor of which city?", "New York City", ("Boston", "Philadelphia", "Baltimore"), ("New York", "NYC"), True),
    ("ny-erie-canal", "NY", "The Erie Canal, finished in 1825, crosses which state?", "New York", ("Pennsylvania", "Ohio", "Michigan"), (), True),
    ("ny-first-capital", "NY", "Which city was the first capital under the Constitution, where Washington took the oath in 1789?", "New York City", ("Philadelphia", "Boston", "Baltimore"), ("New York", "NYC"), True),
    ("pa-liberty-bell", "PA", "The Liberty Bell is kept in which city?", "Philadelphia", ("Boston", "Washington, D.C.", "New York City"), (), True),
    ("pa-gettysburg", "PA", "The Battle of Gettysburg was fought in which state?", "Pennsylvania", ("Virginia", "Maryland", "Ohio"), (), True),
    ("pa-declaration", "PA", "In which city was the Declaration of Independence adopted?", "Philadelphia", ("Boston", "New York City", "Williamsburg"), (), True),
    ("pa-capital-1790", "PA", "Which city served as the national capital from 1790 to 1800?", "Philadelphia", ("New York City", "Boston", "Baltimore"), (), True),
    ("ma-tea-party", "MA", "The Boston Tea Party of 1773 took place in which colony?", "Massachusetts", ("New York", "Pennsylvania", "Virginia"), (), True),
    ("ma-lexington", "MA", "The first battles of the Revolutionary War, at Lexington and Concord, were fought in which state?", "Massachusetts", ("Connecticut", "New Hampshire", "New York"), (), True),
    ("ma-plymouth", "MA", "The Pilgrims of the Mayflower founded Plymouth in 1620 in what is now which state?", "Massachusetts", ("Virginia", "Rhode Island", "Maine"), (), True),
    ("va-jamestown", "VA", "Jamestown, the first permanent English settlement in America, was founded in 1607 in which state?", "Virginia", ("Massachusetts", "North Carolina", "Maryland"), (), True),
    ("va-yorktown", "VA", "The British surrender at Yorktown in 1781 took place in which state?", "Virginia", ("New York", "Pennsylvania", "South Carolina"), (), True),
    ("va-appomattox", "VA", "At Appomattox Court House in which state did Lee surrender to Grant in 1865?", "Virginia", ("Maryland", "Pennsylvania", "North Carolina"), (), True),
    ("va-presidents", "VA", "Which state has been the birthplace of the most presidents?", "Virginia", ("Ohio", "New York", "Massachusetts"), (), True),
    ("va-confederate-capital", "VA", "Which city was the capital of the Confederacy for most of the Civil War?", "Richmond", ("Atlanta", "Charleston", "Montgomery"), (), True),
    ("sc-fort-sumter", "SC", "The Civil War began with the attack on Fort Sumter, in which state?", "South Carolina", ("Georgia", "Virginia", "North Carolina"), (), True),
    ("sc-first-secede", "SC", "Which state was the first to secede from the Union, in December 1860?", "South Carolina", ("Mississippi", "Alabama", "Virginia"), (), True),
    ("md-fort-mchenry", "MD", "Fort McHenry, whose defense inspired \"The Star-Spangled Banner\", is in which city?", "Baltimore", ("Annapolis", "Boston", "Philadelphia"), (), True),
    ("md-naval-academy", "MD", "The U.S. Naval Academy is in which state's capital?", "Maryland", ("Virginia", "Rhode Island", "Connecticut"), (), True),
    ("az-grand-canyon", "AZ", "The Grand Canyon is in which state?", "Arizona", ("Utah", "Nevada", "Colorado"), (), True),
    ("az-hoover-dam", "AZ", "Hoover Dam sits on the border between Nevada and which state?", "Arizona", ("California", "Utah", "New Mexico"), (), True),
    ("ut-golden-spike", "UT", "The first transcontinental railroad was completed in 1869 at Promontory Summit in which territory, later a state?", "Utah", ("Nevada", "Wyoming", "Idaho"), (), True),
    ("ut-arches", "UT", "Arches and Zion National Parks are in which state?", "Utah", ("Arizona", "Colorado", "Nevada"), (), True),
    ("co-mesa-verde", "CO", "Mesa Verde National Park is in which state?", "Colorado", ("Utah", "Arizona", "Wyoming"), (), True),
    ("co-mile-high", "CO", "Which state capital is called the Mile High City?", "Denver", ("Cheyenne", "Santa Fe", "Salt Lake City"), (), True),
    ("nm-carlsbad", "NM", "Carlsbad Caverns National Park is in which state?", "New Mexico", ("Texas", "Arizona", "Oklahoma"), (), True),
    ("nm-oldest-capital", "NM", "Which state capital, founded around 1610, is the oldest in the United States?", "Santa Fe", ("Boston", "Richmond", "Annapolis"), (), True),
    ("wa-rainier", "WA", "Mount Rainier is in which state?", "Washington", ("Oregon", "Idaho", "California"), (), True),
    ("wa-space-needle", "WA", "The Space Needle is in which city?", "Seattle", ("Portland", "Spokane", "Tacoma"), (), True),
    ("or-crater-lake", "OR", "Crater Lake National Park is in which state?", "Oregon", ("Washington", "Idaho", "California"), (), True),
    ("mt-glacier", "MT", "Glacier National Park is in which state?", "Montana", ("Wyoming", "Idaho", "Alaska"), (), True),
    ("mo-arch", "MO", "The Gateway Arch stands in which city?", "St. Louis", ("Kansas City", "Chicago", "Omaha"), ("Saint Louis",), True),
    ("ky-mammoth-cave", "KY", "Mammoth Cave National Park is in which state?", "Kentucky", ("Tennessee", "West Virginia", "Missouri"), (), True),
    ("ky-lincoln", "KY", "Abraham Lincoln was born in which state?", "Kentucky", ("Illinois", "Indiana", "Ohio"), (), True),
    ("ky-derby", "KY", "The Kentucky Derby is run in which city?", "Louisville", ("Lexington", "Frankfort", "Bowling Green"), (), True),
    ("il-lincoln-home", "IL", "Abraham Lincoln's home and tomb are in which city?", "Springfield", ("Chicago", "Peoria", "Galena"), (), True),
    ("il-reagan", "IL", "Ronald Reagan was born in which state?", "Illinois", ("California", "Iowa", "Indiana"), (), True),
    ("mi-motor-city", "MI", "Which city is nicknamed the Motor City?", "Detroit", ("Cleveland", "Chicago", "Toledo"), (), True),
    ("mi-two-peninsulas", "MI", "Which state is made up of two large peninsulas?", "Michigan", ("Wisconsin", "Florida", "Minnesota"), (), True),
    ("mi-four-lakes", "MI", "Which state borders four of the five Great Lakes?", "Michigan", ("Ohio", "New York", "Wisconsin"), (), True),
    ("la-purchase", "LA", "The Louisiana Purchase of 1803 was bought from which country?", "France", ("Spain", "Great Britain", "Mexico"), (), True),
    ("la-parishes", "LA", "Which state is divided into parishes instead of counties?", "Louisiana", ("Alaska", "Mississippi", "Texas"), (), True),
    ("ak-boroughs", "AK", "Which state is divided into boroughs instead of counties?", "Alaska", ("Hawaii", "Louisiana", "Vermont"), (), True),
    ("tn-smokies", "TN", "Great Smoky Mountains National Park lies in North Carolina and which other state?", "Tennessee", ("Virginia", "Kentucky", "Georgia"), (), True),
    ("tn-most-neighbours", "TN", "Tennessee and which other state each border eight states, the most of any?", "Missouri", ("Kentucky", "Colorado", "Georgia"), (), True),
    ("nc-wright", "NC", "The Wright brothers made the first powered airplane flights in 1903 near Kitty Hawk, in which state?", "North Carolina", ("Ohio", "South Carolina", "Virginia"), (), True),
    ("oh-wright", "OH", "The Wright brothers ran their bicycle shop in Dayton, in which state?", "Ohio", ("Indiana", "North Carolina", "Michigan"), (), True),
    ("oh-presidents", "OH", "Seven presidents, including Grant and McKinley, were born in which state?", "Ohio", ("Indiana", "Illinois", "Pennsylvania"), (), True),
    ("nv-las-vegas", "NV", "Las Vegas is in which state?", "Nevada", ("Arizona", "California", "Utah"), (), True),
    ("ga-carter", "GA", "President Jimmy Carter was born in which state?", "Georgia", ("Alabama", "South Carolina", "Florida"), (), True),
    ("ar-clinton", "AR", "President Bill Clinton was born in which state?", "Arkansas", ("Tennessee", "Missouri", "Oklahoma"), (), True),
    ("ar-hot-springs", "AR", "Hot Springs National Park is in which state?", "Arkansas", ("Missouri", "Oklahoma", "Tennessee"), (), True),
    ("ar-little-rock-nine", "AR", "The Little Rock Nine integrated Central High School in 1957 in which state?", "Arkansas", ("Alabama", "Mississippi", "Tennessee"), (), True),
    ("al-bus-boycott", "AL", "Rosa Parks's arrest in 1955 led to the bus boycott in which city?", "Montgomery", ("Birmingham", "Atlanta", "Selma"), (), True),
    ("al-selma", "AL", "The 1965 voting-rights marches from Selma to Montgomery took place in which state?", "Alabama", ("Mississippi", "Georgia", "Tennessee"), (), True),
    ("al-confederacy-first", "AL", "Montgomery, the first capital of the Confederacy, is in which state?", "Alabama", ("Georgia", "Mississippi", "South Carolina"), (), True),
    ("ne-unicameral", "NE", "Which is the only state with a one-house (unicameral) legislature?", "Nebraska", ("Iowa", "Kansas", "Vermont"), (), True),
    ("ne-ford", "NE", "President Gerald Ford was born in which state?", "Nebraska", ("Michigan", "Iowa", "Kansas"), (), True),
    ("ne-split-ev", "NE", "Besides Maine, which state can split its electoral votes by congressional district?", "Nebraska", ("Iowa", "Kansas", "New Hampshire"), (), True),
    ("me-split-ev", "ME", "Besides Nebraska, which state can split its electoral votes by congressional district?", "Maine", ("Vermont", "New Hampshire", "Rhode Island"), (), True),
    ("ia-caucus", "IA", "Which state's caucuses have traditionally opened the presidential nominating season?", "Iowa", ("New Hampshire", "Nevada", "South Carolina"), (), True),
    ("ia-hoover", "IA", "President Herbert Hoover was born in which state?", "Iowa", ("Illinois", "Ohio", "California"), (), True),
    ("nh-primary", "NH", "Which state has long held the first presidential primary election?", "New Hampshire", ("Iowa", "Vermont", "Massachusetts"), (), True),
    ("nh-pierce", "NH", "Franklin Pierce, the 14th president, came from which state?", "New Hampshire", ("Vermont", "Maine", "Massachusetts"), (), True),
    ("vt-coolidge", "VT", "Presidents Chester A. Arthur and Calvin Coolidge were both born in which state?", "Vermont", ("New Hampshire", "Massachusetts", "New York"), (), True),
    ("vt-smallest-capital", "VT", "Montpelier, the least populous state capital, is in which state?", "Vermont", ("New Hampshire", "Maine", "South Dakota"), (), True),
    ("wv-split", "WV", "Which state was formed in 1863 by splitting away from Virginia during the Civil War?", "West Virginia", ("Kentucky", "Maryland", "Tennessee"), (), True),
    ("ks-center", "KS", "The geographic center of the contiguous United States is in which state?", "Kansas", ("Nebraska", "Missouri", "Oklahoma"), (), True),
    ("ks-brown", "KS", "Brown v. Board of Education came from a school case in Topeka, in which state?", "Kansas", ("Missouri", "Arkansas", "Alabama"), (), True),
    ("ok-land-run", "OK", "The Land Run of 1889 opened settlement in which future state?", "Oklahoma", ("Kansas", "Nebraska", "Texas"), (), True),
    ("id-potatoes", "ID", "Which state grows the most potatoes?", "Idaho", ("Washington", "Maine", "Montana"), (), True),
    ("mn-lakes", "MN", "Which state calls itself the Land of 10,000 Lakes?", "Minnesota", ("Wisconsin", "Michigan", "Maine"), (), True),
    ("mn-twin-cities", "MN", "Minneapolis and which other city are called the Twin Cities?", "Saint Paul", ("Duluth", "Bloomington", "Rochester"), ("St. Paul",), True),
    ("wi-dairy", "WI", "Which state is known as America's Dairyland?", "Wisconsin", ("Minnesota", "Iowa", "Vermont"), (), True),
    ("in-indy-500", "IN", "The Indianapolis 500 auto race is held in which state?", "Indiana", ("Ohio", "Illinois", "Michigan"), (), True),
    ("in-hoosier", "IN", "People from which state are called Hoosiers?", "Indiana", ("Ohio", "Illinois", "Kentucky"), (), True),
    ("ct-gwb", "CT", "President George W. Bush was born in which state?", "Connecticut", ("Texas", "Massachusetts", "Maine"), (), True),
    ("ct-yale", "CT", "Yale University is in New Haven, in which state?", "Connecticut", ("Massachusetts", "New York", "Rhode Island"), (), True),
    ("ri-founder", "RI", "Roger Williams founded Providence in 1636 in what is now which state?", "Rhode Island", ("Massachusetts", "Connecticut", "New Hampshire"), (), True),
    ("ri-last-13", "RI", "Which of the original thirteen states was the last to ratify the Constitution?", "Rhode Island", ("North Carolina", "New York", "Virginia"), (), True),
    ("nj-first-3", "NJ", "Which state was the third to ratify the Constitution, after Delaware and Pennsylvania?", "New Jersey", ("Georgia", "Connecticut", "Maryland"), (), True),
    ("nj-cleveland", "NJ", "President Grover Cleveland was born in which state?", "New Jersey", ("New York", "Ohio", "Pennsylvania"), (), True),
    ("ga-mlk", "GA", "Martin Luther King Jr. was born in 1929 in which city?", "Atlanta", ("Montgomery", "Birmingham", "Memphis"), (), True),
    ("la-new-orleans-1815", "LA", "Andrew Jackson won the Battle of New Orleans in 1815 in which state?", "Louisiana", ("Mississippi", "Alabama", "Florida"), (), True),
    ("mo-truman", "MO", "President Harry S. Truman came from which state?", "Missouri", ("Kansas", "Illinois", "Arkansas"), (), True),
    ("nv-battle-born", "NV", "Which state joined the Union in 1864, during the Civil War, and calls itself \"Battle Born\"?", "Nevada", ("West Virginia", "Kansas", "Nebraska"), (), True),
    ("wa-only-president-state", "WA", "Which is the only state named after a president?", "Washington", ("Virginia", "Georgia", "Maryland"), (), True),
    ("nd-peace-garden", "ND", "The International Peace Garden on the Canadian border is in which state?", "North Dakota", ("Minnesota", "Montana", "South Dakota"), (), True),
    ("mt-little-bighorn", "MT", "The Battle of the Little Bighorn (1876) was fought in which present-day state?", "Montana", ("Wyoming", "South Dakota", "Nebraska"), (), True),
    ("id-boise", "ID", "Boise is the capital and largest city of which state?", "Idaho", ("Montana", "Oregon", "Wyoming"), (), True),
    ("or-trail", "OR", "The Oregon Trail ended in the Willamette Valley of which state?", "Oregon", ("Washington", "Idaho", "California"), (), True),
    ("oh-first-nw", "OH", "Which was the first state carved out of the Northwest Territory, in 1803?", "Ohio", ("Indiana", "Illinois", "Michigan"), (), True),
    ("pa-keystone-independence", "PA", "Independence Hall is in which state?", "Pennsylvania", ("Massachusetts", "Virginia", "New York"), (), True),
)
