"""The dataset registry: every real data file the experiments use, with its sha256,
a download URL (the file in the public repository it was taken from, pinned to a
commit) and the citation of the upstream source the papers name.

``data/README.md`` documents the same datasets for readers; ``data/PROVENANCE.md``
(the mirror's own record) gives the full provenance.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class DataFile:
    """One file: its path inside the dataset folder, checksum and download URL."""

    path: str
    sha256: str
    url: str


@dataclass(frozen=True)
class Dataset:
    name: str
    description: str
    citation: str
    upstream: str
    files: tuple[DataFile, ...]
    stand_in: str = ""  # non-empty: this dataset replaces one the paper used, and says which
    notes: tuple[str, ...] = field(default_factory=tuple)


def _raw(repo: str, commit: str, path: str) -> str:
    return f"https://raw.githubusercontent.com/{repo}/{commit}/{path.replace(' ', '%20')}"


_TC = ("trevorcampbell/bayesian-coresets", "63354127953a432c0f35087cf5b75166f652a5f5")
_JZ = ("jackyzyb/bayesian-coresets-optimization", "5e3d5e636aac747aa0f3df7da72941bcfec23065")
_CORESET_CITATION = (
    "Campbell & Broderick, Bayesian coreset construction via greedy iterative geodesic ascent, ICML 2018; "
    "files as used by Zhang et al., AISTATS 2021"
)


def _tc(name: str, sha: str) -> DataFile:
    return DataFile(name, sha, _raw(*_TC, f"examples/data/{name}"))


def _jz(name: str, sha: str) -> DataFile:
    return DataFile(name, sha, _raw(*_JZ, f"examples/data/{name}"))


DATASETS: dict[str, Dataset] = {
    d.name: d
    for d in (
        Dataset(
            "phishing",
            "Phishing websites (LIBSVM `phishing`, from UCI), 10-dim PCA + intercept; N=500 subsample and full set; raw UCI ARFF",
            _CORESET_CITATION + "; Mohammad, Thabtah & McCluskey, UCI Phishing Websites data",
            "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/binary.html",
            (
                _tc("phishing.npz", "63ed646e6dd7479564c6b9686d7e251e450808703c80086bf79daa4d05fba1c5"),
                _jz("phishing_large.npz", "e4271e113d0b74f3f4ed2a1e61414617c08ef0707563ec951323bf1da27092df"),
                DataFile(
                    "uci_phishing_websites_Training_Dataset.arff",
                    "0dfcd84ccdedca6e1be2ce26452c1f1089ac3f839b9a1b0ab1cdcf6d895f9a70",
                    _raw("santoshchejarla/WebSecAsst", "6d4d2626795a74878329586fff786224b5b457fd", "Training Dataset.arff"),
                ),
            ),
            notes=("keys X, y, Xt, yt; last column of X is the intercept; not whitened",),
        ),
        Dataset(
            "chemreact",
            "Chemical reactivity (Komarek ds1.10): 10-dim PCA + intercept; N=500 subsample and full set",
            _CORESET_CITATION + "; P. Komarek, ds1 datasets",
            "http://komarix.org/ac/ds",
            (
                _tc("ds1.npz", "33ffb2df19794dc46f06a850dd3a0181548434d898742c76baf2bea7b27d6b73"),
                _jz("ds1_large.npz", "5a1440aab4e74aa6f4a1f52940321b264760e01c4ef6b76c8d014793d16e728c"),
            ),
            notes=("keys X, y, Xt, yt; labels ±1",),
        ),
        Dataset(
            "chemreact100",
            "Chemical reactivity ds1.100 (100 features), test split only (2,674 rows)",
            "Dresdner et al., IJCAI 2021 / Locatello et al., NeurIPS 2018; P. Komarek, ds1 datasets",
            "http://komarix.org/ac/ds/",
            (
                DataFile(
                    "ds1.100_test.npz",
                    "d8d8f208f5d058bf60ffc7be464c28184da02e344086f05dd1fce9f04627db33",
                    _raw(
                        "ratschlab/adaptive-stepsize-boosting-bbvi",
                        "7768b4f8c756c62b9f8e44f6d0bf6311869bb03f",
                        "boosting_bbvi/data/chem/ds1.100_test.npz",
                    ),
                ),
            ),
            notes=("the 26,733-row train split could not be obtained: experiments using it say so",),
        ),
        Dataset(
            "biketrips",
            "Bike sharing hourly counts (UCI), 8 features + intercept; N=500 subsample and full set",
            _CORESET_CITATION + "; Fanaee-T & Gama, UCI Bike Sharing data",
            "http://archive.ics.uci.edu/ml/datasets/Bike+Sharing+Dataset",
            (
                _tc("biketrips.npz", "47e02bcfc1e4608430221caa62c7bf0cda8f6df0dae577471dae27e893b6ee25"),
                _tc("biketrips_large.npz", "4e9a48df9bc457a67255370c7253d0a2a6b11e307ddab99a1102f8e2add2f1dc"),
            ),
        ),
        Dataset(
            "airportdelays",
            "Airport delays with weather features, 15 features + intercept; N=500 subsample and full set",
            _CORESET_CITATION + "; ASA Data Expo 2009 flight delays and Weather Underground",
            "http://stat-computing.org/dataexpo/2009/the-data.html",
            (
                _tc("airportdelays.npz", "bc3ad40f818088a38d9af3a980e4ecc7358ce06d548f16f3a45eb299fc1a55e4"),
                _tc("airportdelays_large.npz", "84e683abf50179c441a60c014a4e644d52e3dacb652f8455b55be9a6de22af29"),
            ),
        ),
        Dataset(
            "synthetic_coresets",
            "The coreset papers' synthetic logistic (θ=[3,3,0]) and Poisson (θ=[1,0]) regression sets",
            _CORESET_CITATION,
            "https://github.com/trevorcampbell/bayesian-coresets",
            (
                _tc("synth_lr.npz", "49a8ed13262e80e6a9347c75ed7b0192bb220037a23a6bf22b5e057e0ee07a49"),
                _jz("synth_lr_large.npz", "be8e85134e971df54439b5eb1dca4f8288144d024f902d05a70cd735bd7ccb4c"),
                _tc("synth_poiss.npz", "45fbcc0330b4ade2cd491d07e1498bdb50a6464b713b9abf7d00120ff141e9ce"),
                _tc("synth_poiss_large.npz", "dfe74f50e1d8b812ef4a0a51e8ad9b320aee0cad505f2ceb58466a65b42d4544"),
            ),
        ),
        Dataset(
            "california_housing",
            "California housing (1990 census block groups) with longitude/latitude",
            "Pace & Barry, Sparse spatial autoregressions, Statistics & Probability Letters 1997",
            "http://www.dcc.fc.up.pt/~ltorgo/Regression/cal_housing.html",
            (
                DataFile(
                    "housing.csv",
                    "8a3727f4cf54ac1a327f69b1d5b4db54c5834ea81c6e4efc0d163300022a685e",
                    _raw("ageron/handson-ml2", "1e2115277b50f6c584cd668fa30e3af309a5b136", "datasets/housing/housing.csv"),
                ),
            ),
            stand_in="UK Land Registry house prices with postcode coordinates (prices2018), which could not be obtained",
        ),
        Dataset(
            "movielens_100k",
            "MovieLens 100K ratings (943 users, 1,682 movies, 100,000 ratings)",
            "Harper & Konstan, The MovieLens datasets, ACM TiiS 2015 (research use only; see the README)",
            "https://grouplens.org/datasets/movielens/",
            (
                DataFile(
                    "u.data",
                    "06416e597f82b7342361e41163890c81036900f418ad91315590814211dca490",
                    _raw("johnshea1996/movie_recommender", "d2f9ee056b1f279118cd0af885e6256cb40f6fa3", "ml-100k/u.data"),
                ),
                DataFile(
                    "README",
                    "4883b8cf340ed0059971b33f56ad3adc88a40792108ebca3d24aafc4c82e8b52",
                    _raw("johnshea1996/movie_recommender", "d2f9ee056b1f279118cd0af885e6256cb40f6fa3", "ml-100k/README"),
                ),
            ),
            stand_in="MovieLens 1M and 10M, which could not be obtained",
        ),
        Dataset(
            "szeged_weather",
            "Szeged hourly weather 2006–2016 (humidity series)",
            "Budincsevity, Szeged weather, Kaggle 2016",
            "https://www.kaggle.com/budincsevity/szeged-weather/data",
            (
                DataFile(
                    "weatherHistory.csv.zip",
                    "dbd28a0890d7b1344a9146e18f961ee3df18882746f40f301fa45c0c623a353c",
                    _raw(
                        "Akshay205/Weather-prediction-using-machine-learning",
                        "ba9c5604adc99ee8f914ab96f775024a39409c32",
                        "weatherHistory.csv.zip",
                    ),
                ),
            ),
        ),
        Dataset(
            "kissgp_sound",
            "Natural sound series of KISS-GP (60,000 samples; 59,309 train / 691 test)",
            "Wilson & Nickisch, KISS-GP, ICML 2015; file from Dong et al., NeurIPS 2017 (GPML_SLD)",
            "https://github.com/kd383/GPML_SLD",
            (
                DataFile(
                    "audio_data.mat",
                    "1c9aa6e6fed61de98e262787e9d37f84ff0cfcc27de8778f408de74eb5c0f0d9",
                    _raw("kd383/GPML_SLD", "6978138720fa9a681b7768e4d0915800ca382295", "demo/sound/audio_data.mat"),
                ),
            ),
        ),
    )
}


def get(name: str) -> Dataset:
    """The registry entry ``name``; a clear error lists the known names."""
    try:
        return DATASETS[name]
    except KeyError:
        raise ValueError(f"unknown dataset {name!r}; the registry has {sorted(DATASETS)}") from None
